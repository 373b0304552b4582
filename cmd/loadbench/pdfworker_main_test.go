package main

import (
	"os"
	"testing"

	"github.com/markuproom/markuproom/models/pdfjob"
)

// TestMain lets the PDF workers that the tests' stores start be this test
// binary itself: started as a worker, it serves PDF jobs instead of
// running the tests.
func TestMain(m *testing.M) {
	pdfjob.ServeIfWorker()
	os.Exit(m.Run())
}
