package xfdf

import (
	"encoding/json"
	"strconv"
	"strings"
)

// ParsedAnnotation is one annotation that Parse read from the <annots> of an XFDF document.
type ParsedAnnotation struct {
	Element    string          // element name without prefix, e.g. "square" or "highlight"
	Name       string          // the name attribute
	Page       int             // 0-based page index; -1 when the page attribute is missing or not one
	Rect       Rect            // the rect attribute; zero when it is missing or not four numbers
	Color      string          // the color attribute
	Subject    string          // the subject attribute
	Title      string          // the title attribute
	CustomData json.RawMessage // the bytes attribute of the <trn-custom-data> child; nil without one
}

// Generated reports whether a is named like the annotations Merge generates.
func (a ParsedAnnotation) Generated() bool { return strings.HasPrefix(a.Name, GeneratedPrefix) }

// Parse returns the annotations of an XFDF document in document order, or an error wrapping ErrMalformed.
func Parse(doc []byte) ([]ParsedAnnotation, error) {
	d, err := decode(doc)
	if err != nil {
		return nil, err
	}
	var out []ParsedAnnotation
	root := d.root
	for _, annots := range root.children {
		if annots.kind != kindElement || annots.local() != "annots" || annots.ns != root.ns {
			continue
		}
		for _, n := range annots.children {
			if n.kind == kindElement {
				out = append(out, parseAnnotation(n))
			}
		}
	}
	return out, nil
}

func parseAnnotation(n *node) ParsedAnnotation {
	a := ParsedAnnotation{Element: n.local(), Page: -1}
	a.Name, _ = n.attr("name")
	a.Color, _ = n.attr("color")
	a.Subject, _ = n.attr("subject")
	a.Title, _ = n.attr("title")
	if v, ok := n.attr("page"); ok {
		if p, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && p >= 0 {
			a.Page = p
		}
	}
	if v, ok := n.attr("rect"); ok {
		a.Rect, _ = parseRect(v)
	}
	for _, c := range n.children {
		if c.kind == kindElement && c.local() == "trn-custom-data" {
			if v, ok := c.attr("bytes"); ok {
				a.CustomData = json.RawMessage(v)
			}
			break
		}
	}
	return a
}

// parseRect reads four comma-separated numbers.
func parseRect(s string) (Rect, bool) {
	parts := strings.Split(s, ",")
	if len(parts) != 4 {
		return Rect{}, false
	}
	var v [4]float64
	for i, p := range parts {
		f, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || !finite(f) {
			return Rect{}, false
		}
		v[i] = f
	}
	return Rect{v[0], v[1], v[2], v[3]}, true
}
