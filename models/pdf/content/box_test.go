package content_test

import (
	"math"
	"testing"

	"github.com/markuproom/markuproom/models/pdf/content"
)

func TestBoxWidthHeight(t *testing.T) {
	b := content.Box{LLX: 36, LLY: 36, URX: 576, URY: 756}
	if b.Width() != 540 || b.Height() != 720 {
		t.Fatalf("Width, Height = %v, %v; want 540, 720", b.Width(), b.Height())
	}
}

func TestBoxContains(t *testing.T) {
	letter := content.Box{URX: 612, URY: 792}
	crop := content.Box{LLX: 36, LLY: 36, URX: 576, URY: 756}
	inf, nan := math.Inf(1), math.NaN()
	tests := []struct {
		name       string
		b          content.Box
		x, y, w, h float64
		want       bool
	}{
		{"inside", letter, 72, 160, 216, 24, true},
		{"whole box", letter, 0, 0, 612, 792, true},
		{"touching bottom-left corner", letter, 0, 0, 10, 10, true},
		{"touching top-right corner", letter, 602, 782, 10, 10, true},
		{"zero size on the edge", letter, 612, 792, 0, 0, true},
		{"within epsilon outside", letter, -1e-7, 0, 612 + 1e-7, 792, true},
		{"just past the right edge", letter, 600, 100, 12.001, 10, false},
		{"just past the top edge", letter, 100, 782, 10, 10.01, false},
		{"left of the box", letter, -1, 100, 10, 10, false},
		{"below the box", letter, 100, -0.5, 10, 10, false},
		{"entirely outside", letter, 700, 800, 10, 10, false},
		{"larger than the box", letter, 0, 0, 613, 793, false},
		{"negative width", letter, 100, 100, -10, 10, false},
		{"negative height", letter, 100, 100, 10, -10, false},
		{"NaN x", letter, nan, 100, 10, 10, false},
		{"NaN width", letter, 100, 100, nan, 10, false},
		{"infinite height", letter, 100, 100, 10, inf, false},
		{"negative infinite y", letter, 100, math.Inf(-1), 10, 10, false},
		{"inside an offset crop box", crop, 36, 36, 540, 720, true},
		{"in the media box but outside the crop box", crop, 10, 100, 50, 50, false},
		{"past the crop box top", crop, 100, 740, 50, 20, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.b.Contains(tt.x, tt.y, tt.w, tt.h); got != tt.want {
				t.Errorf("%+v.Contains(%v, %v, %v, %v) = %v, want %v", tt.b, tt.x, tt.y, tt.w, tt.h, got, tt.want)
			}
		})
	}
}
