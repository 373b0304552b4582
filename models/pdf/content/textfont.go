package content

// Fonts as text extraction needs them: how a string's bytes split into
// character codes, the Unicode text of each code and its advance width.
// Glyph shapes are never read: a glyph's box is its advance width by the
// font's em height (from the descent to one em above it).

import (
	"reflect"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/pdfcpu/pdfcpu/pkg/font"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// Caps on what the fonts of one document may hold (docs/decisions.md,
// "Bounds on reading a PDF's content").
const (
	// maxCMapBytes caps the decoded size of a ToUnicode CMap read for a font.
	maxCMapBytes = 1 << 20
	// maxToUnicodeRunes caps the text one code of a ToUnicode CMap stands
	// for: a ligature is two or three runes, nothing real comes near 255.
	// A longer destination reads as U+FFFD (one unreadable character)
	// rather than as a cut text that was never written.
	maxToUnicodeRunes = 255
	// maxCMapRunes caps the runes of all the texts one CMap maps codes to
	// (65,536 codes of a few runes each fit): past it, the CMap's further
	// entries are not read and their codes read as U+FFFD.
	maxCMapRunes = 1 << 20
	// maxDocCMapRunes caps the same across the CMaps of one document.
	maxDocCMapRunes = 4 << 20
	// maxFontEntries caps the entries written into the width and ToUnicode
	// tables of one document's fonts, overwrites included (a bfrange of all
	// 65,536 codes repeated, or thousands of small fonts each claiming every
	// code), and the /W and /Differences elements read: past it, fonts get
	// no more entries.
	maxFontEntries = 2 << 20
	// maxFonts caps the fonts read per document; past it, a font read as
	// the fallback font.
	maxFonts = 10_000
)

// textFont is a font of a page's resources, ready to decode strings.
type textFont struct {
	name    string
	twoByte bool               // Type0: two-byte codes (Identity-H and similar)
	toUni   map[uint32]string  // from the ToUnicode CMap
	enc     *[256]rune         // simple fonts: code to Unicode when toUni lacks it
	encText *[256]string       // enc's texts, made as they are first needed
	widths  map[uint32]float64 // glyph space (1/1000 em)
	missing float64            // width of codes absent from widths
	core    string             // standard 14 font name, when the font is one
	descent float64            // in em, negative
	scale   float64            // glyph space units per 1/1000 em (Type3 fonts' FontMatrix), 0 meaning 1
	known   [256]bool          // widthOf holds the width of single-byte codes looked up once
	widthOf [256]float64
}

// code is one decoded character code of a shown string.
type code struct {
	text  string
	width float64 // in em
	space bool    // the single-byte code 32, to which Tw applies
}

// decode splits s into codes.
func (f *textFont) decode(s []byte, out []code) []code {
	out = out[:0]
	step := 1
	if f.twoByte {
		step = 2
	}
	for i := 0; i+step <= len(s); i += step {
		c := uint32(s[i])
		if step == 2 {
			c = c<<8 | uint32(s[i+1])
		}
		w := f.width(c) / 1000
		if f.scale != 0 {
			w *= f.scale
		}
		out = append(out, code{text: f.text(c), width: w, space: step == 1 && c == 32})
	}
	return out
}

// text returns the Unicode text of code c ("\uFFFD" when unknown).
func (f *textFont) text(c uint32) string {
	if t, ok := f.toUni[c]; ok {
		return t
	}
	if f.enc != nil && c < 256 {
		if r := f.enc[c]; r != 0 {
			// Each code's text is made once per font, not once per glyph.
			if f.encText == nil {
				f.encText = new([256]string)
			}
			if f.encText[c] == "" {
				f.encText[c] = string(r)
			}
			return f.encText[c]
		}
	}
	return "\uFFFD"
}

// width returns the advance width of code c in glyph space.
func (f *textFont) width(c uint32) float64 {
	if c < 256 {
		if !f.known[c] {
			f.widthOf[c], f.known[c] = f.lookupWidth(c), true
		}
		return f.widthOf[c]
	}
	return f.lookupWidth(c)
}

// lookupWidth finds the advance width of code c in glyph space.
func (f *textFont) lookupWidth(c uint32) float64 {
	if w, ok := f.widths[c]; ok {
		return w
	}
	if f.core != "" && f.enc != nil && c < 256 {
		if code, ok := winAnsiCode(f.enc[c]); ok {
			if w, err := font.CharWidth(f.core, rune(code)); err == nil {
				return float64(w)
			}
		}
	}
	return f.missing
}

// fontCache reads each font dictionary of a document once.
type fontCache struct {
	xrt      *model.XRefTable
	read     Streams
	fonts    map[int]*textFont     // by object number of indirect font dictionaries
	direct   map[fontKey]*textFont // font dictionaries written inside resources
	cmaps    map[int]map[uint32]string
	fallback *textFont
	work     *budget
	loaded   int // fonts read (maxFonts)
	entries  int // table entries written (maxFontEntries)
	runes    int // runes of ToUnicode texts kept (maxDocCMapRunes)
}

// entry counts one table entry written: false once maxFontEntries is
// passed or the work budget runs out.
func (fc *fontCache) entry() bool {
	if fc.entries >= maxFontEntries {
		return false
	}
	fc.entries++
	return fc.work.Tick() == nil
}

// fontKey names a font dictionary that is not an object of its own: the
// resource dictionary holding it (by identity) and its resource name.
type fontKey struct {
	res  uintptr
	name string
}

// font returns the font named name in the resources res.
func (fc *fontCache) font(res types.Dict, name string) *textFont {
	if fc.fallback == nil {
		fc.fallback = fallbackFont()
	}
	fonts, _ := fc.xrt.DereferenceDict(res["Font"])
	if fonts == nil {
		return fc.fallback
	}
	o, ok := fonts[name]
	if !ok {
		return fc.fallback
	}
	nr := -1
	key := fontKey{res: reflect.ValueOf(fonts).Pointer(), name: name}
	if ref, ok := o.(types.IndirectRef); ok {
		nr = ref.ObjectNumber.Value()
		if f, ok := fc.fonts[nr]; ok {
			return f
		}
	} else if f, ok := fc.direct[key]; ok {
		return f
	}
	d, err := fc.xrt.DereferenceDict(o)
	if err != nil || d == nil || fc.loaded >= maxFonts {
		return fc.fallback
	}
	fc.loaded++
	f := fc.load(d)
	if nr >= 0 {
		fc.fonts[nr] = f
	} else {
		fc.direct[key] = f
	}
	return f
}

// fallbackFont stands for a font the page names but does not define.
func fallbackFont() *textFont {
	return &textFont{name: "Helvetica", core: "Helvetica", enc: winAnsi(), missing: 500, descent: -0.207}
}

// load builds a textFont from a font dictionary.
func (fc *fontCache) load(d types.Dict) *textFont {
	f := &textFont{missing: 500, descent: -0.2}
	if n := d.NameEntry("BaseFont"); n != nil {
		f.name = stripSubset(*n)
	}
	subtype := ""
	if n := d.NameEntry("Subtype"); n != nil {
		subtype = *n
	}
	desc := d
	if subtype == "Type0" {
		f.twoByte = true
		f.missing = 1000
		if kids, err := fc.xrt.DereferenceArray(d["DescendantFonts"]); err == nil && len(kids) > 0 {
			if cid, err := fc.xrt.DereferenceDict(kids[0]); err == nil && cid != nil {
				desc = cid
				f.widths = fc.cidWidths(cid)
				if dw, err := fc.xrt.DereferenceNumber(cid["DW"]); err == nil {
					f.missing = dw
				}
			}
		}
	} else {
		f.enc = fc.encoding(d, f.name)
		f.widths = fc.simpleWidths(d)
		if subtype == "Type3" {
			// Type3 widths are in the font's own glyph space.
			if m, err := fc.xrt.DereferenceArray(d["FontMatrix"]); err == nil && len(m) == 6 {
				if a, err := fc.xrt.DereferenceNumber(m[0]); err == nil && a > 0 && a < 1 {
					f.scale = a * 1000
				}
			}
		}
		if core, ok := coreFontName(f.name); ok {
			f.core = core
			f.descent = coreDescent(core)
		}
	}
	if fd, err := fc.xrt.DereferenceDict(desc["FontDescriptor"]); err == nil && fd != nil {
		if v, err := fc.xrt.DereferenceNumber(fd["Descent"]); err == nil && v < 0 && v > -1000 {
			f.descent = v / 1000
		}
		if v, err := fc.xrt.DereferenceNumber(fd["MissingWidth"]); err == nil && v > 0 && f.widths != nil && !f.twoByte {
			f.missing = v
		}
	}
	if f.core == "" && f.widths == nil {
		// A simple font without widths: read it as the standard font its
		// name is closest to, as viewers substitute one.
		f.core = "Helvetica"
	}
	f.toUni = fc.toUnicode(d["ToUnicode"])
	return f
}

// stripSubset removes a subset prefix such as "ABCDEF+".
func stripSubset(n string) string {
	if len(n) > 7 && n[6] == '+' && strings.ToUpper(n[:6]) == n[:6] {
		return n[7:]
	}
	return n
}

// simpleWidths reads /FirstChar and /Widths.
func (fc *fontCache) simpleWidths(d types.Dict) map[uint32]float64 {
	ws, err := fc.xrt.DereferenceArray(d["Widths"])
	if err != nil || ws == nil {
		return nil
	}
	first, err := fc.xrt.DereferenceNumber(d["FirstChar"])
	if err != nil || first < 0 || first > 255 {
		return nil
	}
	out := make(map[uint32]float64, len(ws))
	for i, o := range ws {
		if i > 255 {
			break
		}
		if w, err := fc.xrt.DereferenceNumber(o); err == nil && fc.entry() {
			out[uint32(first)+uint32(i)] = w
		}
	}
	return out
}

// cidWidths reads a CIDFont's /W array: "c [w1 w2 …]" and "cfirst clast w".
func (fc *fontCache) cidWidths(cid types.Dict) map[uint32]float64 {
	w, err := fc.xrt.DereferenceArray(cid["W"])
	if err != nil || w == nil {
		return nil
	}
	out := map[uint32]float64{}
	num := func(o types.Object) (float64, bool) {
		v, err := fc.xrt.DereferenceNumber(o)
		return v, err == nil
	}
	for i := 0; i < len(w) && len(out) < 1<<16; {
		// Many fonts may share one long /W: each step counts, entry or not.
		if !fc.entry() {
			return out
		}
		first, ok := num(w[i])
		if !ok || first < 0 || first > 0xffff {
			return out
		}
		if i+1 >= len(w) {
			return out
		}
		if arr, err := fc.xrt.DereferenceArray(w[i+1]); err == nil && arr != nil {
			for k, o := range arr {
				if v, ok := num(o); ok && int(first)+k <= 0xffff {
					if !fc.entry() {
						return out
					}
					out[uint32(first)+uint32(k)] = v
				}
			}
			i += 2
			continue
		}
		if i+2 >= len(w) {
			return out
		}
		last, ok1 := num(w[i+1])
		v, ok2 := num(w[i+2])
		if !ok1 || !ok2 || last < first || last > 0xffff {
			return out
		}
		for c := uint32(first); c <= uint32(last) && len(out) < 1<<16; c++ {
			if !fc.entry() {
				return out
			}
			out[c] = v
		}
		i += 3
	}
	return out
}

// encoding returns the code-to-Unicode table of a simple font: its base
// encoding with /Differences applied.
func (fc *fontCache) encoding(d types.Dict, name string) *[256]rune {
	base := winAnsi()
	if core, ok := coreFontName(name); ok && (core == "Symbol" || core == "ZapfDingbats") {
		base = latin1()
	}
	o, err := fc.xrt.Dereference(d["Encoding"])
	if err != nil {
		return base
	}
	switch e := o.(type) {
	case types.Name:
		return namedEncoding(e.Value(), base)
	case types.Dict:
		if n := e.NameEntry("BaseEncoding"); n != nil {
			base = namedEncoding(*n, base)
		}
		diffs, err := fc.xrt.DereferenceArray(e["Differences"])
		if err != nil {
			return base
		}
		c := -1
		for _, it := range diffs {
			// Many fonts may share one long /Differences: each element read counts.
			if !fc.entry() {
				break
			}
			switch v := it.(type) {
			case types.Integer:
				c = v.Value()
			case types.Float:
				c = int(v.Value())
			case types.Name:
				if c >= 0 && c < 256 {
					if r, ok := glyphRune(v.Value()); ok {
						base[c] = r
					}
				}
				c++
			}
		}
	}
	return base
}

// namedEncoding returns the table of a predefined encoding.
func namedEncoding(n string, fallback *[256]rune) *[256]rune {
	switch n {
	case "WinAnsiEncoding":
		return winAnsi()
	case "StandardEncoding":
		e := winAnsi()
		e['\''], e['`'] = '\u2019', '\u2018'
		for c := 0x80; c < 0x100; c++ {
			e[c] = 0
		}
		return e
	case "MacRomanEncoding":
		e := winAnsi()
		for c := 0x80; c < 0x100; c++ {
			e[c] = 0 // not mapped: rare in forms, and never part of a tag
		}
		return e
	}
	return fallback
}

// toUnicode reads a ToUnicode CMap (bfchar and bfrange sections).
func (fc *fontCache) toUnicode(o types.Object) map[uint32]string {
	if o == nil {
		return nil
	}
	ref, indirect := o.(types.IndirectRef)
	if indirect {
		if m, ok := fc.cmaps[ref.ObjectNumber.Value()]; ok {
			return m
		}
	}
	m := fc.parseToUnicode(o)
	if indirect {
		fc.cmaps[ref.ObjectNumber.Value()] = m
	}
	return m
}

// parseToUnicode reads the bfchar and bfrange sections of a CMap stream,
// within maxToUnicodeRunes per code, maxCMapRunes per CMap, and the
// document's maxDocCMapRunes, maxFontEntries and work budget.
func (fc *fontCache) parseToUnicode(o types.Object) map[uint32]string {
	b := fc.read.Stream(o, maxCMapBytes, true)
	if b == nil {
		return nil
	}
	return fc.parseCMap(b)
}

// parseCMap reads the bfchar and bfrange sections of the decoded CMap b.
func (fc *fontCache) parseCMap(b []byte) map[uint32]string {
	if fc.work.lex(len(b)) != nil {
		return nil
	}
	cm := &cmapReader{fc: fc, out: map[uint32]string{}}
	lx := &contentLexer{b: b, max: 512}
	var stack []operand
	for len(cm.out) < 1<<16 && !cm.full {
		op, args, ok := lx.next(stack)
		if !ok || fc.work.Tick() != nil {
			break
		}
		stack = args
		switch op {
		case "endbfchar":
			for i := 0; i+1 < len(args) && !cm.full; i += 2 {
				if args[i].kind == opString && args[i+1].kind == opString {
					cm.set(codeValue(args[i].str), args[i+1].str, 0)
				}
			}
		case "endbfrange":
			for i := 0; i+2 < len(args) && !cm.full; i += 3 {
				lo, hi, dst := args[i], args[i+1], args[i+2]
				if lo.kind != opString || hi.kind != opString {
					continue
				}
				a, z := codeValue(lo.str), codeValue(hi.str)
				if z < a || z-a > 0xffff || (dst.kind != opString && dst.kind != opArray) {
					continue
				}
				// Counted by offset: a range ending at the largest code
				// must not wrap around.
				n := z - a
				if dst.kind == opArray {
					n = min(n, uint32(len(dst.items)))
				}
				for k := uint32(0); k <= n && len(cm.out) < 1<<16 && !cm.full; k++ {
					switch dst.kind {
					case opString:
						cm.set(a+k, dst.str, k)
					case opArray:
						if int(k) < len(dst.items) && dst.items[k].kind == opString {
							cm.set(a+k, dst.items[k].str, 0)
						}
					}
				}
			}
		}
	}
	return cm.out
}

// cmapReader fills one ToUnicode table within the caps.
type cmapReader struct {
	fc    *fontCache
	out   map[uint32]string
	runes int  // runes kept by this CMap (maxCMapRunes)
	full  bool // a cap was reached: nothing more is read
}

// set maps code c to the UTF-16BE text dst, its last unit increased by k
// (a bfrange's offset); a text longer than maxToUnicodeRunes maps to U+FFFD.
func (cm *cmapReader) set(c uint32, dst []byte, k uint32) {
	if !cm.fc.entry() {
		cm.full = true
		return
	}
	text := "\uFFFD"
	// Four bytes are at most one rune: a longer string is never decoded.
	if len(dst) <= 4*maxToUnicodeRunes {
		if k == 0 {
			text = utf16Text(dst)
		} else {
			text = offsetText(dst, k)
		}
		if utf8.RuneCountInString(text) > maxToUnicodeRunes {
			text = "\uFFFD"
		}
	}
	n := utf8.RuneCountInString(text)
	if cm.runes+n > maxCMapRunes || cm.fc.runes+n > maxDocCMapRunes {
		cm.full = true
		return
	}
	cm.runes += n
	cm.fc.runes += n
	cm.out[c] = text
}

// codeValue reads a big-endian character code.
func codeValue(b []byte) uint32 {
	var v uint32
	for _, c := range b {
		v = v<<8 | uint32(c)
	}
	return v
}

// utf16Text decodes UTF-16BE.
func utf16Text(b []byte) string {
	u := make([]uint16, 0, len(b)/2)
	for i := 0; i+1 < len(b); i += 2 {
		u = append(u, uint16(b[i])<<8|uint16(b[i+1]))
	}
	return string(utf16.Decode(u))
}

// offsetText returns the UTF-16BE text b with its last unit increased by k.
// It copies b: callers keep b within 4*maxToUnicodeRunes bytes.
func offsetText(b []byte, k uint32) string {
	if len(b) < 2 || len(b) > 4*maxToUnicodeRunes {
		return "\uFFFD"
	}
	c := append([]byte(nil), b...)
	n := len(c)
	v := (uint32(c[n-2])<<8 | uint32(c[n-1])) + k
	c[n-2], c[n-1] = byte(v>>8), byte(v)
	return utf16Text(c)
}
