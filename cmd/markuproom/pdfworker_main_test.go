package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/markuproom/markuproom/models/pdfjob"
)

// TestMain lets the PDF workers that the tests' stores start be this test
// binary itself: started as a worker, it serves PDF jobs instead of
// running the tests. It also removes the server binary the tests built.
func TestMain(m *testing.M) {
	pdfjob.ServeIfWorker()
	code := m.Run()
	if built.dir != "" {
		_ = os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// built is the server binary that the tests which run it as a process
// share: it is built once per test run.
var built struct {
	once sync.Once
	dir  string
	bin  string
	err  error
}

// serverBinary builds the server binary once for all the tests that run it
// as its own process, and returns its path.
func serverBinary(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		built.dir, built.err = os.MkdirTemp("", "markuproom-test-bin-")
		if built.err != nil {
			return
		}
		built.bin = filepath.Join(built.dir, "markuproom")
		if out, err := exec.Command("go", "build", "-o", built.bin, ".").CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.bin
}
