package xfdf

import (
	"fmt"
	"strings"
	"testing"
)

func BenchmarkMergeCaller(b *testing.B) {
	doc := readTestdata(b, "caller.xfdf")
	annots := sampleAnnotations()
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		if _, err := Merge(doc, annots); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMergeHostile guards against quadratic work on documents built
// to cause it: many attributes on one element, many namespace bindings in
// scope, many annotations to remove.
func BenchmarkMergeHostile(b *testing.B) {
	const n = 50000
	var attrs, bindings strings.Builder
	for i := range n {
		fmt.Fprintf(&attrs, " a%d=\"1\"", i)
		fmt.Fprintf(&bindings, " xmlns:p%d=\"urn:%d\"", i, i)
	}
	docs := map[string]string{
		"attributes": "<xfdf" + attrs.String() + "/>",
		"bindings":   "<xfdf" + bindings.String() + ">" + strings.Repeat("<p1:a/>", n) + "</xfdf>",
		"generated":  "<xfdf><annots>" + strings.Repeat("<square name=\"markuproom-tag-1\"/>\n", n) + "</annots></xfdf>",
	}
	for name, doc := range docs {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			for b.Loop() {
				if _, err := Merge([]byte(doc), nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
