package pdf

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu"
)

func TestInspectPageLimit(t *testing.T) {
	b, err := Sample(5, "Limit")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		limit int
		want  error
	}{
		{4, ErrTooManyPages},
		{1, ErrTooManyPages},
		{5, nil},
		{6, nil},
	}
	for _, tt := range tests {
		info, err := inspect(context.Background(), bytes.NewReader(b), tt.limit)
		if !errors.Is(err, tt.want) || (err == nil && len(info.Pages) != 5) {
			t.Errorf("inspect(5 pages, limit %d) = %d pages, %v; want %v", tt.limit, len(info.Pages), err, tt.want)
		}
	}
}

// TestPageLimitWithoutCount checks the limit against the page tree itself,
// not only the /Count the file announces.
func TestPageLimitWithoutCount(t *testing.T) {
	b, err := Sample(3, "Lying count")
	if err != nil {
		t.Fatal(err)
	}
	b = bytes.Replace(b, []byte("/Count 3"), []byte("/Count 1"), 1)
	if _, err := inspect(context.Background(), bytes.NewReader(b), 2); !errors.Is(err, ErrTooManyPages) && !errors.Is(err, ErrMalformed) {
		t.Errorf("inspect = %v, want ErrTooManyPages or ErrMalformed", err)
	}
}

func TestNormalizeRotate(t *testing.T) {
	for in, want := range map[int]int{
		0: 0, 90: 90, 180: 180, 270: 270, 360: 0, 450: 90, 720: 0,
		-90: 270, -180: 180, -270: 90, -360: 0, -450: 270,
		45: 0, 100: 0, -30: 0,
	} {
		if got := normalizeRotate(in); got != want {
			t.Errorf("normalizeRotate(%d) = %d, want %d", in, got, want)
		}
	}
}

func TestTextLiteral(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Plain", "(Plain)"},
		{"a (b) c", `(a \(b\) c)`},
		{`back\slash`, `(back\\slash)`},
		{"unbalanced ((", `(unbalanced \(\()`},
		{"été", `(\351t\351)`},
		{"漢字", "(??)"},
		{"€ and “quotes”", "(? and ?quotes?)"},
		{"tab\tnew\nline\r", "(tab new line )"},
		{"bell\x07", "(bell?)"},
		{"bad \xff utf8", "(bad ? utf8)"},
	}
	for _, tt := range tests {
		if got := textLiteral(tt.in); got != tt.want {
			t.Errorf("textLiteral(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestTextString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"A", "<FEFF0041>"},
		{"é(", "<FEFF00E90028>"},
		{"漢", "<FEFF6F22>"},
		{"😀", "<FEFFD83DDE00>"},
		{"\xff", "<FEFFFFFD>"},
	}
	for _, tt := range tests {
		if got := textString(tt.in); got != tt.want {
			t.Errorf("textString(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// TestCollectPagesBrokenTrees runs the page walker on page trees that
// pdfcpu's validation would reject first, to check it stands on its own.
func TestCollectPagesBrokenTrees(t *testing.T) {
	good, err := Sample(3, "Tree")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		old, new string
		want     error
	}{
		{"cycle", "/Kids [7 0 R", "/Kids [6 0 R", ErrMalformed},
		{"page listed twice", "/Kids [7 0 R 9 0 R", "/Kids [7 0 R 7 0 R", ErrMalformed},
		{"kid not a reference", "/Kids [7 0 R", "/Kids [7 0 0", ErrMalformed},
		{"no MediaBox", "/MediaBox", "/MediaBxx", ErrMalformed},
		{"short MediaBox", "/MediaBox [0 0 612 792]", "/MediaBox [0 0 612    ]", ErrMalformed},
		{"bad CropBox", "/Type /Page /Parent 6 0 R", "/CropBox(x) /Parent 6 0 R", ErrMalformed},
		{"unknown node type", "/Type /Page /Parent 6 0 R", "/Type /Leaf /Parent 6 0 R", ErrMalformed},
		{"too many", "", "", ErrTooManyPages},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := bytes.Replace(good, []byte(tt.old), []byte(tt.new), 1)
			if tt.old != "" && bytes.Equal(b, good) {
				t.Fatalf("%q not found", tt.old)
			}
			if len(b) != len(good) {
				t.Fatal("replacement must keep the length")
			}
			pc, err := pdfcpu.ReadWithContext(context.Background(), bytes.NewReader(b), newConfig(DefaultLimits()))
			if err != nil {
				t.Fatal(err)
			}
			limit := 3
			if tt.want == ErrTooManyPages {
				limit = 2
			}
			if _, _, err := collectPages(pc.XRefTable, limit); !errors.Is(err, tt.want) {
				t.Errorf("collectPages = %v, want %v", err, tt.want)
			}
		})
	}
}
