//go:build !linux

package pdfworker

import (
	"log/slog"
	"syscall"
	"time"
)

func procAttr() *syscall.SysProcAttr                      { return &syscall.SysProcAttr{} }
func residentBytes(int) (int64, error)                    { return 0, errUnsupported }
func cpuTime(int) (time.Duration, error)                  { return 0, errUnsupported }
func limitStart(int, int64, int64) error                  { return errUnsupported }
func limitCPU(int, time.Duration, time.Duration) error    { return errUnsupported }
func findCgroups() (cgroups, error)                       { return cgroups{}, errUnsupported }
func (cgroups) create(string, int, int64) (string, error) { return "", errUnsupported }
func (cgroups) oomKilled(string) bool                     { return false }
func (cgroups) remove(string) error                       { return nil }
func (cgroups) removeStale(*slog.Logger)                  {}

type cgroups struct{ base string }
