//go:build linux

package pdfworker

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// clockTicks is the kernel's USER_HZ, the unit of /proc/PID/stat's times
// (100 on every Linux architecture Go supports).
const clockTicks = 100

// procAttr makes a worker die with its parent (and not with the terminal's
// signals, which are the parent's to handle).
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: true}
}

// residentBytes is a process's resident set (VmRSS).
func residentBytes(pid int) (int64, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, err
	}
	for line := range bytes.Lines(b) {
		if v, ok := bytes.CutPrefix(line, []byte("VmRSS:")); ok {
			f := strings.Fields(string(v))
			if len(f) < 1 {
				break
			}
			kb, err := strconv.ParseInt(f[0], 10, 64)
			if err != nil {
				return 0, err
			}
			return kb << 10, nil
		}
	}
	return 0, errors.New("no VmRSS in /proc status")
}

// cpuTime is the processor time a process has used, user and system.
func cpuTime(pid int) (time.Duration, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	// The command name is in parentheses and may hold spaces: fields count
	// from after its closing one (utime and stime are fields 14 and 15).
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, errors.New("malformed /proc stat")
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0, errors.New("short /proc stat")
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, err
	}
	return time.Duration(utime+stime) * time.Second / clockTicks, nil
}

// setLimit sets a resource limit of another process.
func setLimit(pid, resource int, soft, hard uint64) error {
	return unix.Prlimit(pid, resource, &unix.Rlimit{Cur: soft, Max: hard}, nil)
}

// limitStart sets the limits a worker keeps for its whole life: address
// space (a backstop only) and the size of any file it writes.
func limitStart(pid int, addressSpace, fileSize int64) error {
	return errors.Join(
		setLimit(pid, unix.RLIMIT_AS, uint64(addressSpace), uint64(addressSpace)),
		setLimit(pid, unix.RLIMIT_FSIZE, uint64(fileSize), uint64(fileSize)))
}

// limitCPU lets a worker that has used used so far use budget more: past
// the soft limit the kernel sends SIGXCPU (which Go ignores), a second
// later SIGKILL.
func limitCPU(pid int, used, budget time.Duration) error {
	soft := uint64((used+budget+time.Second-1)/time.Second) + 1
	return setLimit(pid, unix.RLIMIT_CPU, soft, soft+1)
}

// cgroups makes a memory cgroup per worker under this process's own one,
// when the memory controller is there and writable (cgroup v1, or v2 with
// memory delegated). The zero value (base "") means none: the watchdog is
// then the wall.
type cgroups struct {
	base string
	v2   bool
}

// findCgroups looks for a writable memory cgroup under this process's own.
func findCgroups() (cgroups, error) {
	f, err := os.Open("/proc/self/cgroup")
	if err != nil {
		return cgroups{}, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	var v2path string
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) != 3 {
			continue
		}
		if parts[0] == "0" && parts[1] == "" {
			v2path = parts[2]
			continue
		}
		for _, c := range strings.Split(parts[1], ",") {
			if c == "memory" {
				base := filepath.Join("/sys/fs/cgroup/memory", parts[2])
				if err := unix.Access(base, unix.W_OK); err != nil {
					return cgroups{}, fmt.Errorf("cgroup %s: %w", base, err)
				}
				return cgroups{base: base}, nil
			}
		}
	}
	if v2path != "" {
		base := filepath.Join("/sys/fs/cgroup", v2path)
		ctl, err := os.ReadFile(filepath.Join(base, "cgroup.subtree_control"))
		if err == nil && bytes.Contains(ctl, []byte("memory")) && unix.Access(base, unix.W_OK) == nil {
			return cgroups{base: base, v2: true}, nil
		}
		return cgroups{}, errors.New("cgroup v2 without the memory controller delegated here")
	}
	return cgroups{}, errors.New("no memory cgroup")
}

// create makes the cgroup name with a memory limit and puts pid in it; it
// returns the cgroup's directory.
func (c cgroups) create(name string, pid int, limit int64) (string, error) {
	dir := filepath.Join(c.base, name)
	if err := os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
		return "", err
	}
	write := func(file, v string) error { return os.WriteFile(filepath.Join(dir, file), []byte(v), 0o644) }
	var err error
	if c.v2 {
		err = write("memory.max", strconv.FormatInt(limit, 10))
		_ = write("memory.swap.max", "0")
	} else {
		err = write("memory.limit_in_bytes", strconv.FormatInt(limit, 10))
		_ = write("memory.swappiness", "0")
	}
	if err == nil {
		err = write("cgroup.procs", strconv.Itoa(pid))
	}
	if err != nil {
		_ = os.Remove(dir)
		return "", err
	}
	return dir, nil
}

// removeStale removes the cgroups of workers whose server has gone (one
// killed before it could clean up): a cgroup is named after the pid of the
// server that made it.
func (c cgroups) removeStale(log *slog.Logger) {
	dirs, _ := filepath.Glob(filepath.Join(c.base, "markuproom-pdf-*"))
	for _, dir := range dirs {
		var owner, n int
		if _, err := fmt.Sscanf(filepath.Base(dir), "markuproom-pdf-%d-%d", &owner, &n); err != nil {
			continue
		}
		if unix.Kill(owner, 0) == nil || owner == os.Getpid() {
			continue // its server still runs
		}
		if err := os.Remove(dir); err != nil && !errors.Is(err, os.ErrNotExist) {
			log.Warn("pdf workers: remove a stale cgroup", "dir", dir, "error", err.Error())
		}
	}
}

// oomKilled reports whether the kernel killed a process of the cgroup at
// dir for passing its memory limit.
func (c cgroups) oomKilled(dir string) bool {
	file := "memory.oom_control"
	if c.v2 {
		file = "memory.events"
	}
	b, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil {
		return false
	}
	for line := range bytes.Lines(b) {
		if v, ok := bytes.CutPrefix(line, []byte("oom_kill ")); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(string(v)))
			return n > 0
		}
	}
	return false
}

// remove deletes the cgroup at dir once its process has gone (the kernel
// refuses while it still holds one, for a moment after the exit).
func (c cgroups) remove(dir string) error {
	var err error
	for range 50 {
		if err = os.Remove(dir); err == nil || errors.Is(err, os.ErrNotExist) {
			return nil
		}
		time.Sleep(10 * time.Millisecond)
	}
	return err
}
