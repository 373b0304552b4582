package main

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// clockTicks is USER_HZ, the unit of /proc/stat (100 on every Linux ABI Go supports).
const clockTicks = 100

func sampleCPU() cpuSample {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return cpuSample{}
	}
	self := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	f, err := os.Open("/proc/stat")
	if err != nil {
		return cpuSample{}
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	if !sc.Scan() {
		return cpuSample{}
	}
	fields := strings.Fields(sc.Text())
	if len(fields) < 9 || fields[0] != "cpu" {
		return cpuSample{}
	}
	// user nice system idle iowait irq softirq steal
	var busy, steal, all int64
	for i, v := range fields[1:9] {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return cpuSample{}
		}
		all += n
		switch i {
		case 3, 4: // idle, iowait
		case 7:
			steal += n
		default:
			busy += n
		}
	}
	tick := func(n int64) time.Duration { return time.Duration(n) * time.Second / clockTicks }
	return cpuSample{self: self, busy: tick(busy), steal: tick(steal), all: tick(all), ok: true}
}
