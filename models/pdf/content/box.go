package content

import "math"

// epsilon absorbs floating-point noise when comparing coordinates in points.
const epsilon = 1e-6

// Box is a rectangle in PDF user-space points, with LLX <= URX and LLY <= URY.
type Box struct {
	LLX float64 `json:"llx"`
	LLY float64 `json:"lly"`
	URX float64 `json:"urx"`
	URY float64 `json:"ury"`
}

// Width returns the horizontal extent of b in points.
func (b Box) Width() float64 { return b.URX - b.LLX }

// Height returns the vertical extent of b in points.
func (b Box) Height() float64 { return b.URY - b.LLY }

// Contains reports whether the rectangle with bottom-left corner (x, y), width w
// and height h lies fully inside b; edges may touch, and negative sizes or
// non-finite values never fit.
func (b Box) Contains(x, y, w, h float64) bool {
	for _, v := range [...]float64{x, y, w, h} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	if w < 0 || h < 0 {
		return false
	}
	return x >= b.LLX-epsilon && y >= b.LLY-epsilon &&
		x+w <= b.URX+epsilon && y+h <= b.URY+epsilon
}

// Normalized returns b with its corners ordered, as PDF readers treat a
// rectangle given by any two opposite corners.
func (b Box) Normalized() Box {
	return Box{
		LLX: math.Min(b.LLX, b.URX), LLY: math.Min(b.LLY, b.URY),
		URX: math.Max(b.LLX, b.URX), URY: math.Max(b.LLY, b.URY),
	}
}

// Intersect returns the overlap of two normalized boxes and whether it has a
// positive area.
func (b Box) Intersect(o Box) (Box, bool) {
	r := Box{
		LLX: math.Max(b.LLX, o.LLX), LLY: math.Max(b.LLY, o.LLY),
		URX: math.Min(b.URX, o.URX), URY: math.Min(b.URY, o.URY),
	}
	return r, r.Width() > 0 && r.Height() > 0
}
