package xfdf

import (
	"bytes"
	"strings"
)

// Merge returns existing with the annotations an earlier Merge generated
// replaced by annots, appended in order at the end of its <annots>; an empty
// or blank existing gives a fresh document holding only annots.
//
// Everything else in existing is kept: the other children of <xfdf>, every
// attribute, namespace prefix, comment and processing instruction, and the
// caller's own annotations in their order. The result is deterministic and
// Merge(Merge(x, a), a) equals Merge(x, a) byte for byte. Errors wrap
// ErrMalformed (existing is not well-formed XFDF) or ErrInvalidAnnotation.
func Merge(existing []byte, annots []Annotation) ([]byte, error) {
	buf := getBuffer()
	defer putBuffer(buf)
	if err := merge(buf, existing, annots); err != nil {
		return nil, err
	}
	return bytes.Clone(buf.Bytes()), nil
}

// MergeText is Merge returning the document as a string, copied once out
// of the buffer it was written in.
func MergeText(existing []byte, annots []Annotation) (string, error) {
	buf := getBuffer()
	defer putBuffer(buf)
	if err := merge(buf, existing, annots); err != nil {
		return "", err
	}
	return buf.String(), nil
}

// merge writes Merge's document into buf.
func merge(buf *bytes.Buffer, existing []byte, annots []Annotation) error {
	if err := checkAnnotations(annots); err != nil {
		return err
	}
	doc := freshDocument()
	if !isBlank(existing) {
		var err error
		if doc, err = decode(existing); err != nil {
			return err
		}
	}
	place(doc.root, annots)
	return encode(buf, doc)
}

func isBlank(b []byte) bool {
	return len(bytes.TrimSpace(bytes.TrimPrefix(b, utf8BOM))) == 0
}

// freshDocument is the document Merge starts from when the caller sent none.
func freshDocument() *document {
	root := newElement("xfdf", attr{"xmlns", Namespace}, attr{"xml:space", "preserve"})
	annots := newElement("annots")
	root.ns, annots.ns = Namespace, Namespace
	root.children = []*node{textNode("\n  "), annots, textNode("\n")}
	return &document{root: root}
}

// place removes the generated annotations from every <annots> of root and
// appends annots to the last <annots>, which it creates at the end of root
// when there is none. New elements follow the layout of their siblings so
// that a second run finds, and reproduces, exactly what the first one wrote.
func place(root *node, annots []Annotation) {
	var (
		target         *node
		indent, genSep string // whitespace before target; before its last generated annotation
		sawGen         bool
	)
	for i, c := range root.children {
		if c.kind != kindElement || c.local() != "annots" || c.ns != root.ns {
			continue
		}
		target, indent = c, ""
		c.children, genSep, sawGen = stripGenerated(c.children)
		if i > 0 {
			indent = trailingSpace(root.children[i-1])
		}
	}
	if len(annots) == 0 {
		return
	}
	if target == nil {
		target = newElement(root.prefix() + "annots")
		target.ns = root.ns
		indent = childSep(root.children, "\n  ")
		appendChildren(root, []*node{target}, indent, "\n")
	}
	line := "\n  "
	if strings.Contains(indent, "\n") {
		line = lastLine(indent)
	}
	fallback := line + indentUnit(line)
	if sawGen {
		fallback = genSep
	}
	sep := childSep(target.children, fallback)
	// One node stands for the annotations, each after sep as appendChildren
	// places elements: it writes them without building their elements.
	block := &node{kind: kindGenerated, annots: annots, annPrefix: target.prefix(), sep: sep}
	appendChildren(target, []*node{block}, sep, line)
}

// stripGenerated drops the generated annotations from children together with
// the whitespace before each, joining the character data around them. It
// also returns that whitespace for the last one dropped, and whether there
// was any.
func stripGenerated(children []*node) (kept []*node, sep string, saw bool) {
	for _, c := range children {
		if c.kind == kindText {
			kept = appendText(kept, c.data)
			continue
		}
		if name, _ := c.attr("name"); c.kind != kindElement || !strings.HasPrefix(name, GeneratedPrefix) {
			kept = append(kept, c)
			continue
		}
		saw, sep = true, ""
		if n := len(kept); n > 0 && kept[n-1].kind == kindText {
			t := kept[n-1]
			i := spaceStart(t.data)
			sep = string(t.data[i:])
			if t.data = t.data[:i]; i == 0 {
				kept = kept[:n-1]
			}
		}
	}
	return kept, sep, saw
}

// childSep is the whitespace that goes before a new last element among
// children: the whitespace before their last element, or fallback.
func childSep(children []*node, fallback string) string {
	for i := len(children) - 1; i >= 0; i-- {
		if children[i].kind == kindElement {
			if i == 0 {
				return ""
			}
			return trailingSpace(children[i-1])
		}
	}
	return fallback
}

// appendChildren appends elems to parent, each after sep. The whitespace that
// ended parent stays last; when there was none and sep starts a new line,
// closing goes there so that the end tag starts a line too.
func appendChildren(parent *node, elems []*node, sep, closing string) {
	out := parent.children
	tail := ""
	if n := len(out); n > 0 && out[n-1].kind == kindText {
		t := out[n-1]
		i := spaceStart(t.data)
		tail = string(t.data[i:])
		if t.data = t.data[:i]; i == 0 {
			out = out[:n-1]
		}
	}
	if tail == "" && strings.Contains(sep, "\n") {
		tail = closing
	}
	for _, e := range elems {
		out = appendText(out, []byte(sep))
		out = append(out, e)
	}
	parent.children = appendText(out, []byte(tail))
}

// trailingSpace is the whitespace that ends n when n is character data.
func trailingSpace(n *node) string {
	if n.kind != kindText {
		return ""
	}
	return string(n.data[spaceStart(n.data):])
}

// spaceStart is the index where the whitespace at the end of b begins.
func spaceStart(b []byte) int {
	i := len(b)
	for i > 0 && isXMLSpace(b[i-1:i]) {
		i--
	}
	return i
}
