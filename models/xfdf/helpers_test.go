package xfdf

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sampleAnnotations are three tags of two signers on two pages, as the
// models package builds them.
func sampleAnnotations() []Annotation {
	const key = "tx-123/0"
	return []Annotation{
		{
			Name: GeneratedName(key, 0), Page: 0, Rect: Rect{72, 100, 272, 140}, Color: "#1F77B4",
			Subject: "SIGNATURETEMPLATE", Title: "signer-1",
			CustomData: []byte(`{"type":"SIGNATURETEMPLATE","signerId":"signer-1","page":1,"required":true,"customData":{}}`),
		},
		{
			Name: GeneratedName(key, 1), Page: 0, Rect: Rect{300.5, 100, 400.25, 120}, Color: "#1F77B4",
			Subject: "DATETEMPLATE", Title: "signer-1",
			CustomData: []byte(`{"type":"DATETEMPLATE","signerId":"signer-1","page":1,"dateFormat":"MM/DD/YYYY","fontSize":11,"customData":{"label":"Date"}}`),
		},
		{
			Name: GeneratedName(key, 2), Page: 1, Rect: Rect{72, 650, 132, 680}, Color: "#D62728",
			Subject: "INITIALSTEMPLATE", Title: "signer-2",
			CustomData: []byte(`{"type":"INITIALSTEMPLATE","signerId":"signer-2","page":2,"customData":{"note":"Initial <here> & \"there\""}}`),
		},
	}
}

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	if name == "" {
		return nil
	}
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// wellFormed checks doc with encoding/xml's own Token loop, which verifies
// matching tags and namespaces, independently of this package's parser.
func wellFormed(doc []byte) error {
	d := xml.NewDecoder(bytes.NewReader(doc))
	d.Strict = true
	for {
		_, err := d.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// callerView renders what Merge must keep of a document: every node except
// the generated annotations in the <annots> of the root, with whitespace
// removed from character data (Merge drops the whitespace before the
// annotations it removes, and joins the character data around them). An
// <annots> left empty is not shown, as Merge creates one when needed.
func callerView(t testing.TB, doc []byte) string {
	t.Helper()
	d, err := decode(doc)
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	var b strings.Builder
	for _, n := range d.prolog {
		viewNode(&b, d.root, n, 0, false)
	}
	viewNode(&b, d.root, d.root, 0, false)
	for _, n := range d.epilog {
		viewNode(&b, d.root, n, 0, false)
	}
	return b.String()
}

func viewNode(b *strings.Builder, root, n *node, depth int, inAnnots bool) {
	switch n.kind {
	case kindText:
		fmt.Fprintf(b, "T%q", strings.Map(func(r rune) rune {
			if r == ' ' || r == '\t' || r == '\n' || r == '\r' {
				return -1
			}
			return r
		}, string(n.data)))
		return
	case kindComment:
		fmt.Fprintf(b, "C%q", n.data)
		return
	case kindProcInst:
		fmt.Fprintf(b, "P%q%q", n.name, n.data)
		return
	}
	annots := depth == 1 && n.local() == "annots" && n.ns == root.ns
	var inner strings.Builder
	var text []byte // character data, joined across removed annotations
	for _, c := range n.children {
		if name, _ := c.attr("name"); annots && c.kind == kindElement && strings.HasPrefix(name, GeneratedPrefix) {
			continue
		}
		if c.kind == kindText {
			text = append(text, c.data...)
			continue
		}
		if t := strings.TrimSpace(string(text)); t != "" {
			viewNode(&inner, root, textNode(string(text)), depth+1, annots)
		}
		text = nil
		viewNode(&inner, root, c, depth+1, annots)
	}
	if t := strings.TrimSpace(string(text)); t != "" {
		viewNode(&inner, root, textNode(string(text)), depth+1, annots)
	}
	if annots && inner.Len() == 0 {
		return
	}
	fmt.Fprintf(b, "<%s{%s}", n.name, n.ns)
	for _, a := range n.attrs {
		fmt.Fprintf(b, " %s=%q", a.name, a.value)
	}
	fmt.Fprintf(b, ">%s</%s>", inner.String(), n.name)
}
