// Package anchor places tags at the occurrences of anchor strings in a
// document's text (DocuSign-style anchor tabs), within a budget of
// characters scanned and caps on the tags placed. It is pure: it reads a
// pdf.Layout and returns places and problem codes; package models words the
// problems and makes the tags (docs/decisions.md, "Anchor search within a
// budget"). It runs in the PDF workers, beside the layout it reads.
package anchor
