package pdf_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"testing"

	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// A file whose cross-reference table lists an object never written (cairo
// 1.16's dropped font subsets) is accepted, repaired, with the page count
// poppler gives it: the reference reads as null. The strict check alone
// refuses it, and cut short it stays refused (TestMendTruncated).
func TestDroppedFontSubset(t *testing.T) {
	b := pdftest.DroppedFontSubset()
	if _, err := inspectBytes(b); !errors.Is(err, pdf.ErrMalformed) {
		t.Fatalf("Inspect = %v, want ErrMalformed (the strict check finds no object 11 at its offset)", err)
	}
	m, info, err := mend(t, b)
	if err != nil || !slices.Equal(m.Repairs, []string{pdf.RepairXRefRebuilt}) {
		t.Fatalf("Mend = repairs %v, %v; want the cross-reference table rebuilt", m.Repairs, err)
	}
	if want := popplerPages(t, b); want != 0 && len(info.Pages) != want {
		t.Errorf("%d pages, poppler counts %d", len(info.Pages), want)
	}
	if len(info.Pages) != 2 {
		t.Errorf("%d pages, want 2", len(info.Pages))
	}
}

// popplerPages is the page count pdfinfo gives b, or 0 when pdfinfo is not
// installed (CI installs it: there it must be).
func popplerPages(t *testing.T, b []byte) int {
	t.Helper()
	bin, err := exec.LookPath("pdfinfo")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("pdfinfo (poppler-utils) is not installed; .ci/run installs it")
		}
		t.Log("pdfinfo is not installed: poppler's page count is not checked")
		return 0
	}
	f := filepath.Join(t.TempDir(), "file.pdf")
	if err := os.WriteFile(f, b, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, f).Output()
	match := regexp.MustCompile(`(?m)^Pages:\s+(\d+)\s*$`).FindSubmatch(out)
	if err != nil || match == nil {
		t.Fatalf("pdfinfo does not open the file: %v\n%s", err, out)
	}
	n, _ := strconv.Atoi(string(match[1]))
	return n
}
