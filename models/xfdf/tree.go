package xfdf

import (
	"strings"
	"unicode/utf8"
)

// A document is a parsed XFDF file. The XML declaration and the whitespace
// outside the root element are not kept: encode writes them afresh.
type document struct {
	prolog []*node // comments and processing instructions before the root
	root   *node
	epilog []*node // comments and processing instructions after the root
}

type nodeKind uint8

const (
	kindElement nodeKind = iota
	kindText
	kindComment
	kindProcInst
	// kindGenerated stands for the annotations Merge adds to an <annots>,
	// written straight from them (Annotation.write): annots, each element
	// named with prefix and each after the first preceded by sep.
	kindGenerated
)

// A node is an element, a run of character data, a comment or a processing
// instruction. Names are kept as written, prefix included ("xml:space"), so
// that encoding reproduces them exactly.
type node struct {
	kind     nodeKind
	name     string // element name or processing-instruction target
	ns       string // namespace URI of an element, resolved while parsing
	attrs    []attr
	children []*node
	data     []byte // character data, comment or processing instruction

	annots         []Annotation // kindGenerated
	annPrefix, sep string       // kindGenerated
}

type attr struct{ name, value string }

func newElement(name string, attrs ...attr) *node {
	return &node{kind: kindElement, name: name, attrs: attrs}
}

func textNode(s string) *node { return &node{kind: kindText, data: []byte(s)} }

// attr returns the value of the attribute called name (as written) and whether it exists.
func (n *node) attr(name string) (string, bool) {
	for _, a := range n.attrs {
		if a.name == name {
			return a.value, true
		}
	}
	return "", false
}

// local is the element name without its prefix.
func (n *node) local() string {
	_, l := splitName(n.name)
	return l
}

// prefix is the element's prefix with its colon ("p:"), or "".
func (n *node) prefix() string {
	p, _ := splitName(n.name)
	if p == "" {
		return ""
	}
	return p + ":"
}

func splitName(name string) (prefix, local string) {
	if i := strings.IndexByte(name, ':'); i >= 0 {
		return name[:i], name[i+1:]
	}
	return "", name
}

// appendText adds character data to children, joining it to a preceding run.
func appendText(children []*node, data []byte) []*node {
	if len(data) == 0 {
		return children
	}
	if n := len(children); n > 0 && children[n-1].kind == kindText {
		children[n-1].data = append(children[n-1].data, data...)
		return children
	}
	return append(children, &node{kind: kindText, data: append([]byte(nil), data...)})
}

func isXMLSpace(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return false
		}
	}
	return true
}

// isXMLChar reports whether r may appear in an XML 1.0 document.
func isXMLChar(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D ||
		r >= 0x20 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD ||
		r >= 0x10000 && r <= 0x10FFFF
}

// validChars reports whether b is UTF-8 made of XML characters only.
func validChars(b []byte) bool {
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size == 1 || !isXMLChar(r) {
			return false
		}
		b = b[size:]
	}
	return true
}

// sanitize replaces invalid UTF-8 and characters XML cannot carry (such as
// U+0000 or ESC) with U+FFFD, as encoding/xml's escaping would; doing it
// first makes the written value explicit and lets Parse return it unchanged.
func sanitize(s string) string {
	if validChars([]byte(s)) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s { // invalid UTF-8 bytes arrive as utf8.RuneError, U+FFFD
		if !isXMLChar(r) {
			r = utf8.RuneError
		}
		b.WriteRune(r)
	}
	return b.String()
}

// lastLine is the part of the whitespace s from its last newline on ("\n  " of "\n\n  ").
func lastLine(s string) string {
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i:]
	}
	return s
}

// indentUnit guesses one level of indentation from an indented line: a tab
// when the line is indented with tabs, else two spaces.
func indentUnit(line string) string {
	if strings.HasSuffix(line, "\t") {
		return "\t"
	}
	return "  "
}
