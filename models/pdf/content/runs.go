package content

import (
	"math"
	"strings"
)

// Thresholds of groupRuns, in ems of the font size.
const (
	// runMaxGap is the widest gap between two glyphs of one run.
	runMaxGap = 1.0
	// runSpaceGap is the gap from which two glyphs read as separate words.
	runSpaceGap = 0.2
	// runMaxShift is how far a glyph may sit off the run's baseline.
	runMaxShift = 0.3
)

// groupRuns joins glyphs, in the order they were drawn, into runs, keeping
// only glyphs whose centre lies inside the visible box crop. It stops with
// the budget's error when work runs out (the glyphs are already capped in
// runes, so this is the clock and the context).
func groupRuns(gs []glyph, crop Box, work *budget) ([]TextRun, error) {
	var runs []TextRun
	var cur *TextRun
	var prev glyph
	var sb strings.Builder
	flush := func() {
		if cur == nil {
			return
		}
		cur.Text = sb.String()
		if strings.TrimSpace(cur.Text) != "" {
			runs = append(runs, *cur)
		}
		cur = nil
		sb.Reset()
	}
	for _, g := range gs {
		if err := work.Tick(); err != nil {
			return nil, err
		}
		b := quadBox(g.quad)
		cx, cy := (b.LLX+b.URX)/2, (b.LLY+b.URY)/2
		if !crop.Contains(cx, cy, 0, 0) {
			continue
		}
		if cur != nil {
			join, space := follows(prev, g)
			if !join {
				flush()
			} else if space {
				gap := quadBox([4]point{prev.quad[1], g.quad[0], g.quad[3], prev.quad[2]})
				sb.WriteString(" ")
				cur.Glyphs = append(cur.Glyphs, gap)
			}
		}
		if cur == nil {
			cur = &TextRun{Size: round2(g.size), Font: g.font, Box: b}
		}
		for range g.text {
			cur.Glyphs = append(cur.Glyphs, b)
		}
		sb.WriteString(g.text)
		cur.Box = union(cur.Box, b)
		prev = g
	}
	flush()
	return runs, nil
}

// follows reports whether glyph g continues the run that ends with prev,
// and whether a space should separate them.
func follows(prev, g glyph) (join, space bool) {
	size := prev.size
	if size <= 0 || math.Abs(g.size-size) > 0.2*size {
		return false, false
	}
	if prev.dir.x*g.dir.x+prev.dir.y*g.dir.y < 0.995 {
		return false, false
	}
	d := point{g.quad[0].x - prev.quad[0].x, g.quad[0].y - prev.quad[0].y}
	if math.Abs(d.x*prev.dir.y-d.y*prev.dir.x) > runMaxShift*size {
		return false, false
	}
	e := point{g.quad[0].x - prev.quad[1].x, g.quad[0].y - prev.quad[1].y}
	gap := e.x*prev.dir.x + e.y*prev.dir.y
	if gap > runMaxGap*size || gap < -0.5*size {
		return false, false
	}
	return true, gap > runSpaceGap*size && !prev.space && !g.space
}

// quadBox returns the bounding box of four corners.
func quadBox(q [4]point) Box {
	b := Box{LLX: q[0].x, LLY: q[0].y, URX: q[0].x, URY: q[0].y}
	for _, p := range q[1:] {
		b.LLX, b.URX = math.Min(b.LLX, p.x), math.Max(b.URX, p.x)
		b.LLY, b.URY = math.Min(b.LLY, p.y), math.Max(b.URY, p.y)
	}
	return b
}

// union returns the smallest box holding a and b.
func union(a, b Box) Box {
	return Box{LLX: math.Min(a.LLX, b.LLX), LLY: math.Min(a.LLY, b.LLY), URX: math.Max(a.URX, b.URX), URY: math.Max(a.URY, b.URY)}
}

// clipShapes keeps the shapes that overlap crop, clipped to it.
func clipShapes(bs []Box, crop Box) []Box {
	var out []Box
	for _, b := range bs {
		// A rule has no height to speak of: grow it before intersecting.
		g := Box{LLX: b.LLX, LLY: b.LLY - 0.01, URX: b.URX, URY: b.URY + 0.01}
		g.LLX, g.URX = g.LLX-0.01, g.URX+0.01
		if _, ok := g.Intersect(crop); ok {
			out = append(out, Box{
				LLX: math.Max(b.LLX, crop.LLX), LLY: math.Max(b.LLY, crop.LLY),
				URX: math.Min(b.URX, crop.URX), URY: math.Min(b.URY, crop.URY),
			})
		}
	}
	return out
}

// round2 rounds to 1/100.
func round2(v float64) float64 { return math.Round(v*100) / 100 }
