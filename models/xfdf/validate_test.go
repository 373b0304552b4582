package xfdf

import (
	"errors"
	"strings"
	"testing"
)

var malformed = []struct{ name, doc string }{
	{"empty", ""},
	{"blank", "  \n"},
	{"not XML", "hello"},
	{"JSON", `{"xfdf":""}`},
	{"wrong root", `<fdf></fdf>`},
	{"wrong root namespace", `<xfdf xmlns="urn:other"/>`},
	{"prefixed root in no XFDF namespace", `<p:xfdf xmlns:p="urn:other"/>`},
	{"doctype", `<!DOCTYPE xfdf><xfdf/>`},
	{"entity declaration", "<!DOCTYPE xfdf [<!ENTITY e \"boom\">]><xfdf>&e;</xfdf>"},
	{"undefined entity", `<xfdf>&e;</xfdf>`},
	{"truncated", `<xfdf><annots><square name="a"`},
	{"unclosed", `<xfdf><annots>`},
	{"mismatched", `<xfdf><annots></fields></xfdf>`},
	{"stray end tag", `<xfdf/></annots>`},
	{"two roots", `<xfdf/><xfdf/>`},
	{"text before root", `x<xfdf/>`},
	{"text after root", `<xfdf/>x`},
	{"late declaration", `<!--c--><?xml version="1.0"?><xfdf/>`},
	{"reserved pi target", `<xfdf><?XML x?></xfdf>`},
	{"version 1.1", `<?xml version="1.1"?><xfdf/>`},
	{"Latin-1 bytes", "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><xfdf a=\"\xe9\"/>"},
	{"invalid UTF-8 text", "<xfdf>\xff</xfdf>"},
	{"invalid UTF-8 attribute", "<xfdf a=\"\xff\"/>"},
	{"invalid UTF-8 comment", "<xfdf><!--\xff--></xfdf>"},
	{"control character", "<xfdf>\x01</xfdf>"},
	{"NUL reference", `<xfdf>&#0;</xfdf>`},
	{"control character in comment", "<xfdf><!--\x1b--></xfdf>"},
	{"control character in pi", "<xfdf><?p \x00?></xfdf>"},
	{"double hyphen in comment", `<xfdf><!-- a -- b --></xfdf>`},
	{"unquoted attribute", `<xfdf a=1/>`},
	{"duplicate attribute", `<xfdf a="1" a="2"/>`},
	{"duplicate expanded attribute", `<xfdf xmlns:a="urn:x" xmlns:b="urn:x" a:k="1" b:k="2"/>`},
	{"undeclared element prefix", `<xfdf><p:annots/></xfdf>`},
	{"undeclared attribute prefix", `<xfdf p:a="1"/>`},
	{"xmlns prefix element", `<xfdf><xmlns:a/></xfdf>`},
	{"empty prefix binding", `<xfdf xmlns:p=""/>`},
	{"rebinding xml", `<xfdf xmlns:xml="urn:x"/>`},
	{"declaring xmlns", `<xfdf xmlns:xmlns="urn:x"/>`},
	{"colon at the end", `<xfdf><a:/></xfdf>`},
	{"two colons", `<xfdf xmlns:a="urn:a"><a:b:c/></xfdf>`},
	{"lt in attribute", `<xfdf a="<"/>`},
	{"cdata end in text", `<xfdf>]]></xfdf>`},
	{"too deep", "<xfdf>" + strings.Repeat("<a>", MaxDepth) + strings.Repeat("</a>", MaxDepth) + "</xfdf>"},
	{"very deep", "<xfdf>" + strings.Repeat("<a>", 100000)},
}

func TestValidateRejects(t *testing.T) {
	for _, tt := range malformed {
		t.Run(tt.name, func(t *testing.T) {
			err := Validate([]byte(tt.doc))
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("err = %v, want ErrMalformed", err)
			}
			if !strings.Contains(err.Error(), "line ") {
				t.Errorf("error %q has no position", err)
			}
			if _, perr := Parse([]byte(tt.doc)); !errors.Is(perr, ErrMalformed) {
				t.Errorf("Parse err = %v, want ErrMalformed", perr)
			}
		})
	}
}

func TestValidateAccepts(t *testing.T) {
	valid := []struct{ name, doc string }{
		{"minimal", `<xfdf/>`},
		{"namespaced", `<xfdf xmlns="http://ns.adobe.com/xfdf/" xml:space="preserve"><annots/></xfdf>`},
		{"prefixed root", `<x:xfdf xmlns:x="http://ns.adobe.com/xfdf/"/>`},
		{"declaration", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><xfdf/>`},
		{"lowercase utf-8", `<?xml version="1.0" encoding="utf-8"?><xfdf/>`},
		{"declared Latin-1", `<?xml version="1.0" encoding="ISO-8859-1"?><xfdf a="é"/>`},
		{"declared EBCDIC", `<?xml version="1.0" encoding="EBCDIC"?><xfdf/>`},
		{"BOM", "\uFEFF<?xml version=\"1.0\"?><xfdf/>"},
		{"whitespace before declaration", "\n<?xml version=\"1.0\"?>\n<xfdf/>\n"},
		{"comments and pis", `<!--a--><?p?><xfdf><!--b--><?q r?></xfdf><!--c-->`},
		{"cdata", `<xfdf><![CDATA[<&>]]></xfdf>`},
		{"references", `<xfdf a="&#x9;&#10;&quot;&apos;">&lt;&amp;&gt;&#x1F600;</xfdf>`},
		{"default namespace redeclared", `<xfdf><pdf-info xmlns="http://www.pdftron.com/pdfinfo"/></xfdf>`},
		{"scoped prefix", `<xfdf><a:b xmlns:a="urn:a"><a:c/></a:b><d xmlns:a="urn:a" a:e="1"/></xfdf>`},
		{"xml prefix", `<xfdf xml:lang="en" xml:space="default"/>`},
		{"same attribute in two namespaces", `<xfdf xmlns:a="urn:a" xmlns:b="urn:b" a:k="1" b:k="2" k="3"/>`},
		{"max depth", "<xfdf>" + strings.Repeat("<a>", MaxDepth-1) + strings.Repeat("</a>", MaxDepth-1) + "</xfdf>"},
	}
	for _, tt := range valid {
		if err := Validate([]byte(tt.doc)); err != nil {
			t.Errorf("%s: %v", tt.name, err)
		}
		if _, err := Merge([]byte(tt.doc), sampleAnnotations()); err != nil {
			t.Errorf("%s: Merge: %v", tt.name, err)
		}
	}
}

func TestValidateErrorPosition(t *testing.T) {
	err := Validate([]byte("<xfdf>\n  <annots>\n  </fields>\n</xfdf>"))
	if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "line 3") || !strings.Contains(err.Error(), "<annots> is closed by </fields>") {
		t.Errorf("err = %v", err)
	}
}
