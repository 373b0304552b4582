package pdftest

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
)

// popplerPages finds the page count in pdfinfo's output.
var popplerPages = regexp.MustCompile(`(?m)^Pages:\s+(\d+)\s*$`)

// PopplerPages runs poppler's pdfinfo on content and returns the page count
// it reads, or ok false when poppler does not open the file. Without
// pdfinfo it fails the test when $CI is set (CI installs poppler-utils,
// .ci/install-deps pdf) and otherwise returns known false, so the caller
// checks the rest without poppler's word.
func PopplerPages(t testing.TB, content []byte) (pages int, ok, known bool) {
	t.Helper()
	bin, err := exec.LookPath("pdfinfo")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("pdfinfo (poppler-utils) is not installed; .ci/install-deps pdf installs it")
		}
		return 0, false, false
	}
	path := filepath.Join(t.TempDir(), "doc.pdf")
	if err := os.WriteFile(path, content, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, path).Output()
	m := popplerPages.FindSubmatch(out)
	if err != nil || m == nil {
		return 0, false, true
	}
	n, err := strconv.Atoi(string(m[1]))
	if err != nil {
		t.Fatalf("pdfinfo: page count %q: %v", m[1], err)
	}
	return n, true, true
}
