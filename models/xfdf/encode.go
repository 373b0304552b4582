package xfdf

import (
	"bytes"
	"encoding/xml"
)

// encode writes doc with encoding/xml: an XML declaration, then the prolog,
// root and epilog one to a line. Names are written as they were read, with
// an empty Space, so the Encoder neither invents prefixes nor adds xmlns
// attributes; its escaping turns characters XML cannot carry into U+FFFD.
func encode(doc *document) ([]byte, error) {
	var buf bytes.Buffer
	enc := xml.NewEncoder(&buf)
	decl := xml.ProcInst{Target: "xml", Inst: []byte(`version="1.0" encoding="UTF-8"`)}
	if err := enc.EncodeToken(decl); err != nil {
		return nil, err
	}
	newline := xml.CharData("\n")
	for _, n := range doc.prolog {
		if err := encodeAll(enc, newline, n); err != nil {
			return nil, err
		}
	}
	if err := encodeAll(enc, newline, doc.root); err != nil {
		return nil, err
	}
	for _, n := range doc.epilog {
		if err := encodeAll(enc, newline, n); err != nil {
			return nil, err
		}
	}
	if err := enc.EncodeToken(newline); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
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
