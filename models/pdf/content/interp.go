package content

// The content stream interpreter behind pdf.ReadLayout: it follows the graphics
// and text state (ISO 32000-1, 8.4 and 9.3-9.4) far enough to place every
// glyph and every straight line, and draws nothing.

import (
	"math"
	"unicode/utf8"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// matrix is a PDF transformation [a b c d e f].
type matrix [6]float64

var identity = matrix{1, 0, 0, 1, 0, 0}

// mul returns m × n: first m, then n.
func (m matrix) mul(n matrix) matrix {
	return matrix{
		m[0]*n[0] + m[1]*n[2], m[0]*n[1] + m[1]*n[3],
		m[2]*n[0] + m[3]*n[2], m[2]*n[1] + m[3]*n[3],
		m[4]*n[0] + m[5]*n[2] + n[4], m[4]*n[1] + m[5]*n[3] + n[5],
	}
}

// apply maps the point (x, y).
func (m matrix) apply(x, y float64) point {
	return point{m[0]*x + m[2]*y + m[4], m[1]*x + m[3]*y + m[5]}
}

type point struct{ x, y float64 }

// gstate is the part of the graphics state text and rules depend on.
type gstate struct {
	ctm                            matrix
	font                           *textFont
	size, tc, tw, th, tl, rise, lw float64
}

// glyph is one placed character code.
type glyph struct {
	text  string
	quad  [4]point // bottom-left, bottom-right, top-right, top-left
	dir   point    // unit vector along the baseline
	size  float64
	font  string
	space bool
}

// interpreter reads the pages of one document, sharing fonts and decoded
// streams between them and the operator and glyph budgets across them.
type interpreter struct {
	work   *budget
	xrt    *model.XRefTable
	read   Streams
	fonts  *fontCache
	ops    int
	glyphs int // runes placed (a glyph counts each rune of its text)
	shown  int // character codes shown, placed or not (size 0, no text)
	forms  int
	err    error

	// per page
	gs      gstate
	stack   []gstate
	tm, tlm matrix
	path    [][]point
	points  int // in path
	cur     point
	out     []glyph
	rules   []Box
	vrules  []Box
	rects   []Box
	codes   []code
	// pageRunes counts the runes of the page's glyphs (maxPageGlyphs).
	pageRunes int
}

// page interprets the content of page d with resources res, keeping what
// lies inside crop.
func (in *interpreter) page(d types.Dict, res types.Dict, crop Box) (Page, error) {
	in.gs = gstate{ctm: identity, th: 1, lw: 1, font: fallbackFont()}
	// The glyph buffer is reused from page to page: groupRuns copies what it keeps.
	in.stack, in.path, in.points, in.out, in.rules, in.vrules, in.rects = in.stack[:0], nil, 0, in.out[:0], nil, nil, nil
	in.pageRunes = 0
	var content []byte
	if o, ok := d.Find("Contents"); ok {
		o, _ = in.xrt.Dereference(o)
		switch c := o.(type) {
		case types.StreamDict:
			content = in.read.Stream(d["Contents"], math.MaxInt64, false)
		case types.Array:
			for _, s := range c {
				if err := in.work.Tick(); err != nil {
					return Page{}, err
				}
				content = append(content, in.read.Stream(s, math.MaxInt64, false)...)
				content = append(content, '\n')
			}
		}
	}
	if in.read.Err() != nil {
		return Page{}, in.read.Err()
	}
	in.run(content, res, 0)
	if in.err == nil {
		in.err = in.read.Err()
	}
	if in.err != nil {
		return Page{}, in.err
	}
	runs, err := groupRuns(in.out, crop, in.work)
	if err != nil {
		return Page{}, err
	}
	return Page{
		Runs:  runs,
		Rules: clipShapes(in.rules, crop), VerticalRules: clipShapes(in.vrules, crop), Rects: clipShapes(in.rects, crop),
	}, nil
}

// run interprets one content stream (a page's or a form XObject's).
func (in *interpreter) run(content []byte, res types.Dict, depth int) {
	lx := &contentLexer{b: content}
	var stack []operand
	base := len(in.stack)
	// Every run counts its bytes, a form drawn again included.
	if err := in.work.lex(len(content)); err != nil {
		in.err = err
		return
	}
	for in.err == nil {
		op, args, ok := lx.next(stack)
		if !ok {
			break
		}
		stack = args
		in.ops++
		if op == "TJ" && len(args) > 0 {
			in.ops += len(args[len(args)-1].items)
		}
		if in.ops > maxLayoutOps {
			in.err = errLayoutTooBig("operators", maxLayoutOps)
			return
		}
		if err := in.work.Tick(); err != nil {
			in.err = err
			return
		}
		in.do(op, args, res, depth)
	}
	// A form restores the state it started with, whatever it leaves open.
	for len(in.stack) > base {
		in.gs, in.stack = in.stack[len(in.stack)-1], in.stack[:len(in.stack)-1]
	}
}

// nums reads the last n operands as numbers; ok is false if they are not.
func nums(args []operand, n int) ([]float64, bool) {
	if len(args) < n {
		return nil, false
	}
	out := make([]float64, n)
	for i, a := range args[len(args)-n:] {
		if a.kind != opNumber {
			return nil, false
		}
		out[i] = a.num
	}
	return out, true
}

// do executes one operator.
func (in *interpreter) do(op string, args []operand, res types.Dict, depth int) {
	gs := &in.gs
	switch op {
	case "q":
		if len(in.stack) < maxGraphicsDepth {
			in.stack = append(in.stack, in.gs)
		}
	case "Q":
		if n := len(in.stack); n > 0 {
			in.gs, in.stack = in.stack[n-1], in.stack[:n-1]
		}
	case "cm":
		if v, ok := nums(args, 6); ok {
			gs.ctm = matrix(v).mul(gs.ctm)
		}
	case "w":
		if v, ok := nums(args, 1); ok {
			gs.lw = math.Abs(v[0])
		}
	case "BT":
		in.tm, in.tlm = identity, identity
	case "Tf":
		if len(args) >= 2 && args[len(args)-2].kind == opName && args[len(args)-1].kind == opNumber {
			gs.font = in.fonts.font(res, string(args[len(args)-2].str))
			gs.size = args[len(args)-1].num
		}
	case "Tc":
		if v, ok := nums(args, 1); ok {
			gs.tc = v[0]
		}
	case "Tw":
		if v, ok := nums(args, 1); ok {
			gs.tw = v[0]
		}
	case "Tz":
		if v, ok := nums(args, 1); ok {
			gs.th = v[0] / 100
		}
	case "TL":
		if v, ok := nums(args, 1); ok {
			gs.tl = v[0]
		}
	case "Ts":
		if v, ok := nums(args, 1); ok {
			gs.rise = v[0]
		}
	case "Td":
		if v, ok := nums(args, 2); ok {
			in.nextLine(v[0], v[1])
		}
	case "TD":
		if v, ok := nums(args, 2); ok {
			gs.tl = -v[1]
			in.nextLine(v[0], v[1])
		}
	case "Tm":
		if v, ok := nums(args, 6); ok {
			in.tm, in.tlm = matrix(v), matrix(v)
		}
	case "T*":
		in.nextLine(0, -gs.tl)
	case "Tj":
		if len(args) > 0 && args[len(args)-1].kind == opString {
			in.show(args[len(args)-1].str)
		}
	case "'":
		in.nextLine(0, -gs.tl)
		if len(args) > 0 && args[len(args)-1].kind == opString {
			in.show(args[len(args)-1].str)
		}
	case "\"":
		if v, ok := nums(args[:max(0, len(args)-1)], 2); ok {
			gs.tw, gs.tc = v[0], v[1]
		}
		in.nextLine(0, -gs.tl)
		if len(args) > 0 && args[len(args)-1].kind == opString {
			in.show(args[len(args)-1].str)
		}
	case "TJ":
		if len(args) > 0 && args[len(args)-1].kind == opArray {
			for _, it := range args[len(args)-1].items {
				switch it.kind {
				case opString:
					in.show(it.str)
				case opNumber:
					in.tm = matrix{1, 0, 0, 1, -it.num / 1000 * gs.size * gs.th, 0}.mul(in.tm)
				}
			}
		}
	case "m":
		if v, ok := nums(args, 2); ok {
			in.cur = gs.ctm.apply(v[0], v[1])
			in.subpath(in.cur)
		}
	case "l":
		if v, ok := nums(args, 2); ok && len(in.path) > 0 {
			in.cur = gs.ctm.apply(v[0], v[1])
			in.addPoint(in.cur)
		}
	case "c", "v", "y":
		// Curves end the straight segments; the end point is the new current point.
		if v, ok := nums(args, 2); ok {
			in.cur = gs.ctm.apply(v[0], v[1])
			in.subpath(in.cur)
		}
	case "h":
		if n := len(in.path); n > 0 && len(in.path[n-1]) > 0 {
			in.addPoint(in.path[n-1][0])
		}
	case "re":
		if v, ok := nums(args, 4); ok {
			x, y, w, h := v[0], v[1], v[2], v[3]
			if in.subpath(gs.ctm.apply(x, y)) {
				for _, p := range []point{gs.ctm.apply(x+w, y), gs.ctm.apply(x+w, y+h), gs.ctm.apply(x, y+h), gs.ctm.apply(x, y)} {
					in.addPoint(p)
				}
			}
		}
	case "S", "s":
		in.paint(true)
	case "f", "F", "f*", "B", "B*", "b", "b*":
		in.paint(false)
	case "n":
		in.path, in.points = nil, 0
	case "Do":
		if len(args) > 0 && args[len(args)-1].kind == opName {
			in.form(res, string(args[len(args)-1].str), depth)
		}
	}
}

// nextLine starts a new line offset by (tx, ty) from the current one.
func (in *interpreter) nextLine(tx, ty float64) {
	in.tlm = matrix{1, 0, 0, 1, tx, ty}.mul(in.tlm)
	in.tm = in.tlm
}

// subpath starts a subpath at p unless the path already holds maxPathPoints
// points (the rest of such a path is not kept).
func (in *interpreter) subpath(p point) bool {
	if in.points >= maxPathPoints {
		return false
	}
	in.points++
	in.path = append(in.path, []point{p})
	return true
}

// addPoint extends the last subpath, within maxPathPoints for the path.
func (in *interpreter) addPoint(p point) {
	n := len(in.path)
	if n == 0 || in.points >= maxPathPoints {
		return
	}
	in.points++
	in.path[n-1] = append(in.path[n-1], p)
}

// show places the glyphs of one string. Every code shown counts against
// maxLayoutCodes, whatever its size (text at size 0 is work too); every rune
// placed counts against the glyph caps of the page and of the document (one
// code may stand for many runes, and each rune gets a box).
func (in *interpreter) show(s []byte) {
	gs := &in.gs
	f := gs.font
	in.codes = f.decode(s, in.codes)
	in.shown += len(in.codes)
	if in.shown > maxLayoutCodes {
		in.err = errLayoutTooBig("character codes shown", maxLayoutCodes)
		return
	}
	for i, c := range in.codes {
		if i%clockEvery == clockEvery-1 {
			if err := in.work.check(false); err != nil {
				in.err = err
				return
			}
		}
		m := matrix{gs.size * gs.th, 0, 0, gs.size, 0, gs.rise}.mul(in.tm).mul(gs.ctm)
		if c.text != "" && gs.size != 0 {
			n := utf8.RuneCountInString(c.text)
			in.glyphs += n
			if in.glyphs > maxLayoutGlyphs {
				in.err = errLayoutTooBig("glyphs", maxLayoutGlyphs)
				return
			}
			in.pageRunes += n
			if in.pageRunes > maxPageGlyphs {
				in.err = errLayoutTooBig("glyphs on one page", maxPageGlyphs)
				return
			}
			lo, hi := f.descent, f.descent+1
			up := point{m[2], m[3]}
			dir := point{m[0], m[1]}
			if n := math.Hypot(dir.x, dir.y); n > 0 {
				dir = point{dir.x / n, dir.y / n}
			}
			in.out = append(in.out, glyph{
				text:  c.text,
				quad:  [4]point{m.apply(0, lo), m.apply(c.width, lo), m.apply(c.width, hi), m.apply(0, hi)},
				dir:   dir,
				size:  math.Hypot(up.x, up.y),
				font:  f.name,
				space: c.text == " " || c.text == "\u00a0",
			})
		}
		tx := c.width*gs.size + gs.tc
		if c.space {
			tx += gs.tw
		}
		in.tm = matrix{1, 0, 0, 1, tx * gs.th, 0}.mul(in.tm)
	}
}

// paint records the straight rules and rectangles of the current path.
func (in *interpreter) paint(stroke bool) {
	t := in.gs.lw * math.Sqrt(math.Abs(in.gs.ctm[0]*in.gs.ctm[3]-in.gs.ctm[1]*in.gs.ctm[2]))
	for _, sp := range in.path {
		if len(in.rules)+len(in.vrules)+len(in.rects) >= maxShapesPerPage {
			break
		}
		if b, ok := axisRect(sp); ok {
			w, h := b.Width(), b.Height()
			switch {
			case h <= 3 && w >= 18:
				in.rules = append(in.rules, b)
			case w <= 3 && h >= 6:
				in.vrules = append(in.vrules, b)
			case w >= 10 && h >= 8:
				in.rects = append(in.rects, b)
			}
			continue
		}
		if !stroke {
			continue
		}
		for i := 1; i < len(sp); i++ {
			a, b := sp[i-1], sp[i]
			switch {
			case math.Abs(a.y-b.y) < 0.5 && math.Abs(a.x-b.x) >= 18:
				in.rules = append(in.rules, Box{
					LLX: math.Min(a.x, b.x), URX: math.Max(a.x, b.x),
					LLY: a.y - t/2, URY: a.y + t/2,
				})
			case math.Abs(a.x-b.x) < 0.5 && math.Abs(a.y-b.y) >= 6:
				in.vrules = append(in.vrules, Box{
					LLX: a.x - t/2, URX: a.x + t/2,
					LLY: math.Min(a.y, b.y), URY: math.Max(a.y, b.y),
				})
			}
		}
	}
	in.path, in.points = nil, 0
}

// axisRect reports whether the subpath is an axis-aligned rectangle (four
// corners, closed or not) and returns it.
func axisRect(sp []point) (Box, bool) {
	if len(sp) == 5 && math.Hypot(sp[4].x-sp[0].x, sp[4].y-sp[0].y) < 0.01 {
		sp = sp[:4]
	}
	if len(sp) != 4 {
		return Box{}, false
	}
	for i := range 4 {
		a, b := sp[i], sp[(i+1)%4]
		if math.Abs(a.x-b.x) > 0.01 && math.Abs(a.y-b.y) > 0.01 {
			return Box{}, false
		}
	}
	b := Box{LLX: sp[0].x, LLY: sp[0].y, URX: sp[2].x, URY: sp[2].y}.Normalized()
	return b, true
}

// form draws the form XObject name of res.
func (in *interpreter) form(res types.Dict, name string, depth int) {
	if depth >= maxFormDepth {
		return
	}
	in.forms++
	if in.forms > maxFormDraws {
		in.err = errLayoutTooBig("form XObjects drawn", maxFormDraws)
		return
	}
	xobjs, _ := in.xrt.DereferenceDict(res["XObject"])
	if xobjs == nil {
		return
	}
	o, ok := xobjs[name]
	if !ok {
		return
	}
	sd, _, err := in.xrt.DereferenceStreamDict(o)
	if err != nil || sd == nil {
		return
	}
	if st := sd.Dict.NameEntry("Subtype"); st == nil || *st != "Form" {
		return
	}
	content := in.read.Stream(o, math.MaxInt64, true)
	if content == nil {
		return
	}
	fres := res
	if r, err := in.xrt.DereferenceDict(sd.Dict["Resources"]); err == nil && r != nil {
		fres = r
	}
	saved := in.gs
	savedTm, savedTlm := in.tm, in.tlm
	if a, err := in.xrt.DereferenceArray(sd.Dict["Matrix"]); err == nil && len(a) == 6 {
		var m matrix
		for i, e := range a {
			m[i], _ = in.xrt.DereferenceNumber(e)
		}
		in.gs.ctm = m.mul(in.gs.ctm)
	}
	in.run(content, fres, depth+1)
	in.gs, in.tm, in.tlm = saved, savedTm, savedTlm
}
