package export

import (
	"bytes"
	"encoding/csv"
	"testing"
)

func TestCellsThatWouldRunAsFormulasAreText(t *testing.T) {
	var buf bytes.Buffer
	w := NewCSV(&buf)
	in := []string{"=HYPERLINK(\"http://x\")", "+1", "-2", "@SUM(A1)", "\tx", "plain", "", "a=b", "O'Brien, Jr."}
	if err := w.Write(in...); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"'=HYPERLINK(\"http://x\")", "'+1", "'-2", "'@SUM(A1)", "'\tx", "plain", "", "a=b", "O'Brien, Jr."}
	for i, got := range rows[0] {
		if got != want[i] {
			t.Errorf("cell %d: got %q, want %q", i, got, want[i])
		}
	}
}
