package xfdf

import (
	"bytes"
	"encoding/xml"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// The document is written in one pass into a pooled buffer by write, which
// produces exactly the bytes encoding/xml's Encoder would (encodeXML, kept
// for what write does not handle, and as the reference its tests compare
// against): an XML declaration, then the prolog, root and epilog one to a
// line; names as they were read, with no invented prefixes or xmlns
// attributes; characters XML cannot carry turned into U+FFFD by the escaping.
// write handles elements, character data and the generated annotations
// (what Merge makes and what callers send); a document with a comment or a
// processing instruction goes through encodeXML, whose checks decide what
// may be written.

// bufferPool holds the buffers documents are written into; one that grew
// past maxPooledBuffer is left to the collector.
var bufferPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

const maxPooledBuffer = 1 << 20

func getBuffer() *bytes.Buffer { return bufferPool.Get().(*bytes.Buffer) }

func putBuffer(b *bytes.Buffer) {
	if b.Cap() <= maxPooledBuffer {
		b.Reset()
		bufferPool.Put(b)
	}
}

// encode writes doc into buf.
func encode(buf *bytes.Buffer, doc *document) error {
	if len(doc.prolog) > 0 || len(doc.epilog) > 0 || !writable(doc.root) {
		return encodeXML(buf, doc)
	}
	buf.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	write(buf, doc.root)
	buf.WriteByte('\n')
	return nil
}

// writable tells whether write handles n and everything in it.
func writable(n *node) bool {
	switch n.kind {
	case kindText, kindGenerated:
		return true
	case kindElement:
		if n.name == "" {
			return false
		}
		for _, c := range n.children {
			if !writable(c) {
				return false
			}
		}
		return true
	}
	return false
}

// write writes n as encoding/xml's Encoder writes its tokens.
func write(buf *bytes.Buffer, n *node) {
	switch n.kind {
	case kindText:
		escapeBytes(buf, n.data, false)
	case kindGenerated:
		for i := range n.annots {
			if i > 0 {
				escapeString(buf, n.sep, false)
			}
			n.annots[i].write(buf, n.annPrefix, n.sep)
		}
	case kindElement:
		buf.WriteByte('<')
		buf.WriteString(n.name)
		for _, a := range n.attrs {
			writeAttr(buf, a.name, a.value)
		}
		buf.WriteByte('>')
		for _, c := range n.children {
			write(buf, c)
		}
		buf.WriteString("</")
		buf.WriteString(n.name)
		buf.WriteByte('>')
	}
}

// writeAttr writes one attribute as the Encoder does (none for no name).
func writeAttr(buf *bytes.Buffer, name, value string) {
	if name == "" {
		return
	}
	buf.WriteByte(' ')
	buf.WriteString(name)
	buf.WriteString(`="`)
	escapeString(buf, value, true)
	buf.WriteByte('"')
}

// write writes the <square> that element builds for a, without building it.
func (a *Annotation) write(buf *bytes.Buffer, prefix, indent string) {
	buf.WriteByte('<')
	buf.WriteString(prefix)
	buf.WriteString(`square page="`)
	buf.Write(strconv.AppendInt(buf.AvailableBuffer(), int64(a.Page), 10))
	buf.WriteString(`" rect="`)
	for i, v := range [4]float64{a.Rect.X1, a.Rect.Y1, a.Rect.X2, a.Rect.Y2} {
		if i > 0 {
			buf.WriteByte(',')
		}
		if v == 0 {
			v = 0 // turns -0 into 0
		}
		buf.Write(strconv.AppendFloat(buf.AvailableBuffer(), v, 'f', -1, 64))
	}
	buf.WriteByte('"')
	writeAttr(buf, "name", a.Name) // the escaping does what sanitize does
	buf.WriteString(` flags="print"`)
	for _, o := range [3]attr{{"color", a.Color}, {"subject", a.Subject}, {"title", a.Title}} {
		if o.value != "" {
			writeAttr(buf, o.name, o.value)
		}
	}
	buf.WriteByte('>')
	if len(a.CustomData) > 0 {
		line := ""
		if strings.Contains(indent, "\n") {
			line = lastLine(indent)
			escapeString(buf, line, false)
			escapeString(buf, indentUnit(line), false)
		}
		buf.WriteByte('<')
		buf.WriteString(prefix)
		buf.WriteString(`trn-custom-data bytes="`)
		escapeBytes(buf, a.CustomData, true)
		buf.WriteString(`"></`)
		buf.WriteString(prefix)
		buf.WriteString(`trn-custom-data>`)
		escapeString(buf, line, false)
	}
	buf.WriteString("</")
	buf.WriteString(prefix)
	buf.WriteString("square>")
}

// escapeString writes s escaped as encoding/xml escapes character data
// (escapeNewline false) and attribute values (true).
func escapeString(buf *bytes.Buffer, s string, escapeNewline bool) {
	last := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf && c >= 0x20 && c != '"' && c != '\'' && c != '&' && c != '<' && c != '>' {
			i++
			continue
		}
		r, width := utf8.DecodeRuneInString(s[i:])
		i += width
		esc := escapeOf(r, width, escapeNewline)
		if esc == "" {
			continue
		}
		buf.WriteString(s[last : i-width])
		buf.WriteString(esc)
		last = i
	}
	buf.WriteString(s[last:])
}

// escapeBytes is escapeString for bytes.
func escapeBytes(buf *bytes.Buffer, s []byte, escapeNewline bool) {
	last := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf && c >= 0x20 && c != '"' && c != '\'' && c != '&' && c != '<' && c != '>' {
			i++
			continue
		}
		r, width := utf8.DecodeRune(s[i:])
		i += width
		esc := escapeOf(r, width, escapeNewline)
		if esc == "" {
			continue
		}
		buf.Write(s[last : i-width])
		buf.WriteString(esc)
		last = i
	}
	buf.Write(s[last:])
}

// escapeOf is what encoding/xml writes for r (width bytes long), or "" to
// keep it as it is.
func escapeOf(r rune, width int, escapeNewline bool) string {
	switch r {
	case '"':
		return "&#34;"
	case '\'':
		return "&#39;"
	case '&':
		return "&amp;"
	case '<':
		return "&lt;"
	case '>':
		return "&gt;"
	case '\t':
		return "&#x9;"
	case '\n':
		if !escapeNewline {
			return ""
		}
		return "&#xA;"
	case '\r':
		return "&#xD;"
	}
	if !isXMLChar(r) || r == utf8.RuneError && width == 1 {
		return "\uFFFD"
	}
	return ""
}

// encodeXML writes doc with encoding/xml's Encoder.
func encodeXML(buf *bytes.Buffer, doc *document) error {
	enc := xml.NewEncoder(buf)
	decl := xml.ProcInst{Target: "xml", Inst: []byte(`version="1.0" encoding="UTF-8"`)}
	if err := enc.EncodeToken(decl); err != nil {
		return err
	}
	newline := xml.CharData("\n")
	for _, n := range doc.prolog {
		if err := encodeAll(enc, newline, n); err != nil {
			return err
		}
	}
	if err := encodeAll(enc, newline, doc.root); err != nil {
		return err
	}
	for _, n := range doc.epilog {
		if err := encodeAll(enc, newline, n); err != nil {
			return err
		}
	}
	if err := enc.EncodeToken(newline); err != nil {
		return err
	}
	return enc.Close()
}

func encodeAll(enc *xml.Encoder, sep xml.CharData, n *node) error {
	if err := enc.EncodeToken(sep); err != nil {
		return err
	}
	return encodeNode(enc, n)
}

func encodeNode(enc *xml.Encoder, n *node) error {
	switch n.kind {
	case kindText:
		return enc.EncodeToken(xml.CharData(n.data))
	case kindComment:
		return enc.EncodeToken(xml.Comment(n.data))
	case kindProcInst:
		return enc.EncodeToken(xml.ProcInst{Target: n.name, Inst: n.data})
	case kindGenerated:
		for i, a := range n.annots {
			if i > 0 {
				if err := enc.EncodeToken(xml.CharData(n.sep)); err != nil {
					return err
				}
			}
			if err := encodeNode(enc, a.element(n.annPrefix, n.sep)); err != nil {
				return err
			}
		}
		return nil
	}
	start := xml.StartElement{Name: xml.Name{Local: n.name}, Attr: make([]xml.Attr, len(n.attrs))}
	for i, a := range n.attrs {
		start.Attr[i] = xml.Attr{Name: xml.Name{Local: a.name}, Value: a.value}
	}
	if err := enc.EncodeToken(start); err != nil {
		return err
	}
	for _, c := range n.children {
		if err := encodeNode(enc, c); err != nil {
			return err
		}
	}
	return enc.EncodeToken(start.End())
}
