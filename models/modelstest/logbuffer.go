package modelstest

import (
	"strings"
	"sync"
)

// LogBuffer is a log destination that goroutines (a server, a worker) can
// write to while a test reads it.
type LogBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

// Write appends p.
func (l *LogBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String is everything written so far.
func (l *LogBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
