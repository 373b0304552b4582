package main

import "time"

// cpuSample is the CPU time used so far by this process and by the whole
// machine (busy: neither idle nor stolen by the hypervisor; all: every
// state summed over the CPUs); ok is false where it cannot be read.
type cpuSample struct {
	self, busy, steal, all time.Duration
	ok                     bool
}

// cpuUse is the CPU time spent between two samples: by this process (the
// servers and the load generator), by everything else on the machine (here
// essentially PostgreSQL), and stolen by the hypervisor out of all.
type cpuUse struct {
	self, other, steal, all time.Duration
	ok                      bool
}

func cpuSince(a cpuSample) cpuUse {
	b := sampleCPU()
	if !a.ok || !b.ok {
		return cpuUse{}
	}
	self := b.self - a.self
	return cpuUse{self: self, other: max(0, (b.busy-a.busy)-self), steal: b.steal - a.steal, all: b.all - a.all, ok: true}
}

// add accumulates another interval; the sum is valid only if every part is.
func (u cpuUse) add(v cpuUse, first bool) cpuUse {
	if first {
		return v
	}
	return cpuUse{self: u.self + v.self, other: u.other + v.other, steal: u.steal + v.steal, all: u.all + v.all, ok: u.ok && v.ok}
}
