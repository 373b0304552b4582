package main

import (
	"bytes"
	"sync"
	"testing"

	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// syncBuffer is a bytes.Buffer safe for a writer goroutine and a reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func samplePDF(t *testing.T) []byte { return pdftest.ThreePages(t) }
