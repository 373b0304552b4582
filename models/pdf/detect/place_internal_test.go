package detect

import (
	"testing"

	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/tagtype"
)

// TestPlaceKeepsTagsInsideThePage: a box reaching out of the shown page is
// moved in (and shrunk if larger), in user space, on every rotation.
func TestPlaceKeepsTagsInsideThePage(t *testing.T) {
	crop := pdf.Box{LLX: 36, LLY: 72, URX: 576, URY: 756}
	for _, rot := range []int{0, 90, 180, 270} {
		p := pdf.Page{MediaBox: pdf.Box{URX: 612, URY: 792}, CropBox: crop, Rotate: rot}
		dw, dh := p.DisplaySize()
		for _, b := range []pdf.Box{
			{LLX: -20, LLY: -20, URX: 100, URY: 30},
			{LLX: dw - 50, LLY: dh - 10, URX: dw + 50, URY: dh + 30},
			{LLX: -10, LLY: -10, URX: dw + 10, URY: dh + 10},
			{LLX: 10.123, LLY: 20.456, URX: 110.789, URY: 40.001},
		} {
			tag := place(p, tagtype.Signature, 1, b)
			if !crop.Contains(tag.X, tag.Y, tag.Width, tag.Height) {
				t.Errorf("rotate %d, box %+v: tag %+v outside %+v", rot, b, tag, crop)
			}
			if tag.Width <= 0 || tag.Height <= 0 {
				t.Errorf("rotate %d: empty tag %+v", rot, tag)
			}
		}
		// A box inside the page keeps its size (to 1/100 point).
		tag := place(p, tagtype.Signature, 1, pdf.Box{LLX: 10, LLY: 20, URX: 110, URY: 40})
		w, h := tag.Width, tag.Height
		if rot%180 != 0 {
			w, h = h, w
		}
		if w != 100 || h != 20 {
			t.Errorf("rotate %d: %v×%v, want 100×20 as shown", rot, w, h)
		}
	}
}
