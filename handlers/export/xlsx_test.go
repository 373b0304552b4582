package export

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"
)

func TestXLSXReadsBackWithTextCellsNeverFormulas(t *testing.T) {
	x, err := NewXLSX("Rows", []Column{{Title: "Name", Width: 30}, {Title: "When"}, {Title: "Count"}, {Title: "Empty"}})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = x.Close() }()
	at := time.Date(2026, 11, 26, 14, 30, 5, 600_000_000, time.FixedZone("CET", 3600))
	rows := [][]any{
		{`=HYPERLINK("http://x","y")`, at, 3, nil},
		{"+1", time.Time{}, int64(-2), ""},
		{"plain & <tag>", at, 0, nil},
	}
	for _, r := range rows {
		if err := x.Write(r...); err != nil {
			t.Fatal(err)
		}
	}
	if err := x.Write(struct{}{}); err == nil {
		t.Error("a cell of an unknown type was written")
	}
	var buf bytes.Buffer
	if _, err := x.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	got, err := f.GetRows("Rows")
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"Name", "When", "Count", "Empty"},
		{`'=HYPERLINK("http://x","y")`, "2026-11-26 13:30:05", "3"},
		{"'+1", "", "-2"},
		{"plain & <tag>", "2026-11-26 13:30:05", "0"},
	}
	for i := range want {
		for j := range want[i] {
			if j >= len(got[i]) || got[i][j] != want[i][j] {
				t.Errorf("row %d: %q, want %q", i, got[i], want[i])
				break
			}
		}
	}
	for _, cell := range []string{"A2", "A3"} {
		formula, _ := f.GetCellFormula("Rows", cell)
		kind, _ := f.GetCellType("Rows", cell)
		if formula != "" || kind != excelize.CellTypeInlineString {
			t.Errorf("%s: formula %q, type %v", cell, formula, kind)
		}
	}
	if kind, _ := f.GetCellType("Rows", "C2"); kind != excelize.CellTypeNumber && kind != excelize.CellTypeUnset {
		t.Errorf("a count is of type %v", kind)
	}
	style, _ := f.GetCellStyle("Rows", "B1")
	if s, err := f.GetStyle(style); err != nil || s.Font == nil || !s.Font.Bold {
		t.Errorf("the header is not bold: %+v %v", s, err)
	}
	if w, _ := f.GetColWidth("Rows", "A"); w != 30 {
		t.Errorf("column A is %v wide", w)
	}
	if panes, err := f.GetPanes("Rows"); err != nil || !panes.Freeze || panes.YSplit != 1 {
		t.Errorf("the header row is not frozen: %+v %v", panes, err)
	}
}

func TestXLSXRefusesMoreRowsThanASheetHolds(t *testing.T) {
	x, err := NewXLSX("Rows", []Column{{Title: "N"}})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = x.Close() }()
	x.max = 2
	for i := 0; i < 2; i++ {
		if err := x.Write(i); err != nil {
			t.Fatal(err)
		}
	}
	if err := x.Write(3); !errors.Is(err, ErrTooManyRows) || x.Rows() != 2 {
		t.Fatalf("row 3: %v, %d rows", err, x.Rows())
	}
}

func TestTextOfEachKindOfValue(t *testing.T) {
	at := time.Date(2026, 11, 26, 14, 30, 5, 0, time.FixedZone("CET", 3600))
	for v, want := range map[any]string{"a": "a", at: "2026-11-26T13:30:05Z", time.Time{}: "", 7: "7", int64(-8): "-8", nil: "", 1.5: "1.5"} {
		if got := Text(v); got != want {
			t.Errorf("Text(%v) = %q, want %q", v, got, want)
		}
	}
}
