package xfdf

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

const (
	xmlNamespace   = "http://www.w3.org/XML/1998/namespace"
	xmlnsNamespace = "http://www.w3.org/2000/xmlns/"
)

var utf8BOM = []byte("\xEF\xBB\xBF")

// A parser builds a document from a Decoder's raw tokens. RawToken keeps
// prefixes as written (Token would turn them into namespace URLs), so the
// parser checks what RawToken does not: matching end tags, a single root,
// namespace bindings, duplicate attributes, comment and processing
// instruction characters, and the nesting depth.
type parser struct {
	d      *xml.Decoder
	doc    document
	stack  []frame
	scope  map[string][]string // namespace URIs bound to each prefix ("" for the default), innermost last
	closed bool                // the root element has ended
	markup bool                // a token other than whitespace has been read
}

// A frame is an open element and the prefixes it binds.
type frame struct {
	n        *node
	prefixes []string
}

// decode parses an XFDF document, or returns an error wrapping ErrMalformed.
func decode(data []byte) (*document, error) {
	d := xml.NewDecoder(bytes.NewReader(bytes.TrimPrefix(data, utf8BOM)))
	d.Strict = true
	d.CharsetReader = charsetReader
	p := &parser{d: d, scope: make(map[string][]string)}
	for {
		tok, err := d.RawToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			var se *xml.SyntaxError
			if errors.As(err, &se) {
				return nil, p.fail("%s", se.Msg)
			}
			return nil, p.fail("%s", strings.TrimPrefix(err.Error(), "xml: "))
		}
		if err := p.token(tok); err != nil {
			return nil, err
		}
	}
	switch {
	case len(p.stack) > 0:
		return nil, p.fail("unexpected end of input: <%s> is not closed", clip(p.stack[len(p.stack)-1].n.name))
	case p.doc.root == nil:
		return nil, p.fail("no root element")
	}
	return &p.doc, nil
}

func (p *parser) token(tok xml.Token) error {
	if t, ok := tok.(xml.CharData); ok {
		if len(p.stack) > 0 {
			top := p.stack[len(p.stack)-1].n
			top.children = appendText(top.children, t)
		} else if !isXMLSpace(t) {
			return p.fail("text outside the root element")
		}
		return nil
	}
	markup := p.markup
	p.markup = true
	switch t := tok.(type) {
	case xml.StartElement:
		return p.start(t)
	case xml.EndElement:
		return p.end(t)
	case xml.Comment:
		if !validChars(t) {
			return p.fail("comment with a character XML does not allow")
		}
		p.add(&node{kind: kindComment, data: bytes.Clone(t)})
	case xml.ProcInst:
		if strings.EqualFold(t.Target, "xml") {
			if t.Target == "xml" && !markup {
				return nil // the XML declaration; encode writes its own
			}
			return p.fail("misplaced XML declaration")
		}
		if !validChars(t.Inst) {
			return p.fail("processing instruction with a character XML does not allow")
		}
		p.add(&node{kind: kindProcInst, name: t.Target, data: bytes.Clone(t.Inst)})
	case xml.Directive:
		if bytes.HasPrefix(t, []byte("DOCTYPE")) {
			return p.fail("DOCTYPE is not allowed")
		}
		return p.fail("<!%s> is not allowed", clip(string(t)))
	}
	return nil
}

// add places a comment or processing instruction.
func (p *parser) add(n *node) {
	switch {
	case len(p.stack) > 0:
		top := p.stack[len(p.stack)-1].n
		top.children = append(top.children, n)
	case p.doc.root == nil:
		p.doc.prolog = append(p.doc.prolog, n)
	default:
		p.doc.epilog = append(p.doc.epilog, n)
	}
}

func (p *parser) start(t xml.StartElement) error {
	if p.closed {
		return p.fail("a second root element")
	}
	if len(p.stack) >= MaxDepth {
		return p.fail("elements nested more than %d deep", MaxDepth)
	}
	name, err := qualified(t.Name)
	if err != nil {
		return p.fail("%v", err)
	}
	n := &node{kind: kindElement, name: name, attrs: make([]attr, len(t.Attr))}
	p.stack = append(p.stack, frame{n: n})
	f := &p.stack[len(p.stack)-1]
	written := newNameSet(len(t.Attr))
	for i, a := range t.Attr {
		q, err := qualified(a.Name)
		if err != nil {
			return p.fail("%v", err)
		}
		if !written.add(q) {
			return p.fail("attribute %s appears twice on <%s>", clip(q), clip(name))
		}
		n.attrs[i] = attr{q, a.Value}
		prefix := ""
		switch {
		case a.Name.Space == "" && a.Name.Local == "xmlns":
			if a.Value == xmlNamespace || a.Value == xmlnsNamespace {
				return p.fail("the default namespace cannot be %s", a.Value)
			}
		case a.Name.Space == "xmlns":
			if err := checkBinding(a.Name.Local, a.Value); err != nil {
				return p.fail("%v", err)
			}
			prefix = a.Name.Local
		default:
			continue
		}
		f.prefixes = append(f.prefixes, prefix)
		p.scope[prefix] = append(p.scope[prefix], a.Value)
	}
	if n.ns, err = p.resolve(t.Name.Space, true); err != nil {
		return p.fail("%v", err)
	}
	expanded := newNameSet(len(t.Attr))
	for _, a := range t.Attr {
		if a.Name.Space == "" || a.Name.Space == "xmlns" {
			continue
		}
		ns, err := p.resolve(a.Name.Space, false)
		if err != nil {
			return p.fail("%v", err)
		}
		if !expanded.add(ns + " " + a.Name.Local) { // a URI has no spaces
			return p.fail("attribute {%s}%s appears twice on <%s>", clip(ns), clip(a.Name.Local), clip(name))
		}
	}
	if len(p.stack) == 1 {
		if n.local() != "xfdf" || n.ns != "" && n.ns != Namespace {
			return p.fail("the root element is <%s>, not <xfdf>", clip(name))
		}
		p.doc.root = n
	} else {
		parent := p.stack[len(p.stack)-2].n
		parent.children = append(parent.children, n)
	}
	return nil
}

func (p *parser) end(t xml.EndElement) error {
	name, err := qualified(t.Name)
	if err != nil {
		return p.fail("%v", err)
	}
	if len(p.stack) == 0 {
		return p.fail("end tag </%s> without a start tag", clip(name))
	}
	if open := p.stack[len(p.stack)-1].n.name; open != name {
		return p.fail("<%s> is closed by </%s>", clip(open), clip(name))
	}
	for _, prefix := range p.stack[len(p.stack)-1].prefixes {
		p.scope[prefix] = p.scope[prefix][:len(p.scope[prefix])-1]
	}
	p.stack = p.stack[:len(p.stack)-1]
	p.closed = len(p.stack) == 0
	return nil
}

// resolve returns the namespace URI bound to prefix in the open elements.
// An unprefixed element takes the default namespace; an unprefixed
// attribute has none.
func (p *parser) resolve(prefix string, element bool) (string, error) {
	switch {
	case prefix == "xml":
		return xmlNamespace, nil
	case prefix == "xmlns":
		return "", errors.New("the prefix xmlns is reserved")
	case prefix == "" && !element:
		return "", nil
	}
	if uris := p.scope[prefix]; len(uris) > 0 {
		return uris[len(uris)-1], nil
	}
	if prefix == "" {
		return "", nil
	}
	return "", fmt.Errorf("namespace prefix %q is not declared", clip(prefix))
}

// A nameSet finds repeated attribute names: by scanning while they are
// few, with a map once an element has many (a hostile document may hold
// thousands).
type nameSet struct {
	list []string
	m    map[string]bool
}

func newNameSet(n int) *nameSet {
	if n > 16 {
		return &nameSet{m: make(map[string]bool, n)}
	}
	return &nameSet{list: make([]string, 0, n)}
}

// add records name and reports whether it was new.
func (s *nameSet) add(name string) bool {
	if s.m != nil {
		if s.m[name] {
			return false
		}
		s.m[name] = true
		return true
	}
	for _, x := range s.list {
		if x == name {
			return false
		}
	}
	s.list = append(s.list, name)
	return true
}

// checkBinding enforces the rules of Namespaces in XML for xmlns:prefix="uri".
func checkBinding(prefix, uri string) error {
	switch {
	case prefix == "xmlns":
		return errors.New("the prefix xmlns cannot be declared")
	case prefix == "xml" && uri != xmlNamespace, prefix != "xml" && uri == xmlNamespace:
		return errors.New("only the prefix xml may be bound to the XML namespace")
	case uri == xmlnsNamespace:
		return errors.New("no prefix may be bound to the xmlns namespace")
	case uri == "":
		return fmt.Errorf("prefix %q is bound to an empty namespace", clip(prefix))
	}
	return nil
}

// qualified folds a raw name back into its written form ("xml:space").
// RawToken leaves names with several colons, or a colon at either end, whole
// in Local; Namespaces in XML does not allow them.
func qualified(n xml.Name) (string, error) {
	if strings.Contains(n.Local, ":") {
		return "", fmt.Errorf("name %q has a misplaced colon", clip(n.Local))
	}
	if n.Space == "" {
		return n.Local, nil
	}
	return n.Space + ":" + n.Local, nil
}

// fail returns an error wrapping ErrMalformed with the decoder's position.
func (p *parser) fail(format string, args ...any) error {
	line, col := p.d.InputPos()
	return fmt.Errorf("%w: line %d, column %d: %s", ErrMalformed, line, col, fmt.Sprintf(format, args...))
}
