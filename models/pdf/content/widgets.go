package content

import (
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

const (
	// maxWidgetsPerPage caps the widgets read from one page's /Annots.
	maxWidgetsPerPage = 5000
	// maxFieldDepth caps the /Parent chain followed from a widget.
	maxFieldDepth = 32
	// MaxFieldNameRunes caps a field's partial name (/T) and its fully
	// qualified name, in runes: longer ones are cut (a name is a label for
	// a person, and every detected tag carries it).
	MaxFieldNameRunes = 255
	// maxFieldNameRaw caps the bytes of a /T string that are decoded: 255
	// runes take at most 4 UTF-16 bytes each, each written as at most a
	// 4-byte escape.
	maxFieldNameRaw = 16 * MaxFieldNameRunes
)

// Field flags (ISO 32000-1, tables 221, 226, 228).
const (
	flagReadOnly   = 1 << 0
	flagRequired   = 1 << 1
	flagRadio      = 1 << 15
	flagPushButton = 1 << 16
	annotHidden    = 1 << 1
)

// widgets lists the visible form field widgets of page d whose /Rect
// overlaps the page's visible box crop; it stops with the work budget's
// error (each widget may follow a /Parent chain of long names).
func widgets(xrt *model.XRefTable, d types.Dict, crop Box, work *budget) ([]Widget, error) {
	annots, err := xrt.DereferenceArray(d["Annots"])
	if err != nil {
		return nil, nil
	}
	var out []Widget
	for i, o := range annots {
		if i >= maxWidgetsPerPage {
			break
		}
		if err := work.Tick(); err != nil {
			return nil, err
		}
		a, err := xrt.DereferenceDict(o)
		if err != nil || a == nil {
			continue
		}
		if st := a.NameEntry("Subtype"); st == nil || *st != "Widget" {
			continue
		}
		if f, err := xrt.DereferenceInteger(a["F"]); err == nil && f != nil && f.Value()&annotHidden != 0 {
			continue
		}
		box, ok := rectOf(xrt, a["Rect"])
		if !ok {
			continue
		}
		if _, ok := box.Intersect(crop); !ok {
			continue
		}
		w, ok := field(xrt, a, work)
		if !ok {
			continue
		}
		w.Box = box
		out = append(out, w)
	}
	return out, work.err
}

// field reads the field a widget belongs to: its type and flags (inherited
// along /Parent) and its fully qualified name.
func field(xrt *model.XRefTable, a types.Dict, work *budget) (Widget, bool) {
	var names []string
	ft, flags, haveFlags := "", 0, false
	d := a
	for depth := 0; d != nil && depth < maxFieldDepth; depth++ {
		if work.Tick() != nil {
			return Widget{}, false // widgets returns the budget's error
		}
		if o, err := xrt.Dereference(d["T"]); err == nil && o != nil {
			if s, ok := partialName(o); ok {
				names = append(names, s)
			}
		}
		if ft == "" {
			if n := d.NameEntry("FT"); n != nil {
				ft = *n
			}
		}
		if !haveFlags {
			if f, err := xrt.DereferenceInteger(d["Ff"]); err == nil && f != nil {
				flags, haveFlags = f.Value(), true
			}
		}
		p, err := xrt.DereferenceDict(d["Parent"])
		if err != nil {
			break
		}
		d = p
	}
	var w Widget
	switch ft {
	case "Sig":
		w.Kind = WidgetSignature
	case "Tx":
		w.Kind = WidgetText
	case "Ch":
		w.Kind = WidgetChoice
	case "Btn":
		switch {
		case flags&flagPushButton != 0:
			w.Kind = WidgetPushButton
		case flags&flagRadio != 0:
			w.Kind = WidgetRadio
		default:
			w.Kind = WidgetCheckbox
		}
	default:
		return Widget{}, false
	}
	for i, j := 0, len(names)-1; i < j; i, j = i+1, j-1 {
		names[i], names[j] = names[j], names[i]
	}
	w.Name = CutRunes(strings.Join(names, "."), MaxFieldNameRunes)
	w.Required = flags&flagRequired != 0
	w.ReadOnly = flags&flagReadOnly != 0
	return w, true
}

// partialName decodes a field's /T, within maxFieldNameRaw bytes of it and
// MaxFieldNameRunes runes.
func partialName(o types.Object) (string, bool) {
	switch v := o.(type) {
	case types.StringLiteral:
		raw := string(v)
		if len(raw) <= maxFieldNameRaw {
			s, err := types.StringLiteralToString(v)
			return CutRunes(s, MaxFieldNameRunes), err == nil
		}
		// Cut short, the string may end inside an escape or a UTF-16 unit:
		// take the longest of the few nearby cuts that decodes.
		for cut := maxFieldNameRaw; cut > maxFieldNameRaw-8; cut-- {
			if s, err := types.StringLiteralToString(types.StringLiteral(raw[:cut])); err == nil {
				return CutRunes(s, MaxFieldNameRunes), true
			}
		}
		return "", false
	case types.HexLiteral:
		raw := string(v)
		if len(raw) > maxFieldNameRaw {
			raw = raw[:maxFieldNameRaw] // a multiple of 4 hex digits: whole UTF-16 units
		}
		s, err := types.HexLiteralToString(types.HexLiteral(raw))
		return CutRunes(s, MaxFieldNameRunes), err == nil
	}
	return "", false
}

// CutRunes returns s cut to its first n runes.
func CutRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := 0
	for k := range s {
		if i == n {
			return s[:k]
		}
		i++
	}
	return s
}

// rectOf reads a rectangle array.
func rectOf(xrt *model.XRefTable, o types.Object) (Box, bool) {
	a, err := xrt.DereferenceArray(o)
	if err != nil || len(a) != 4 {
		return Box{}, false
	}
	var v [4]float64
	for i, e := range a {
		if v[i], err = xrt.DereferenceNumber(e); err != nil {
			return Box{}, false
		}
	}
	b := Box{LLX: v[0], LLY: v[1], URX: v[2], URY: v[3]}.Normalized()
	return b, b.Width() > 0 && b.Height() > 0
}
