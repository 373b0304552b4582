package xfdf

import "errors"

// Namespace is the XML namespace of XFDF documents.
const Namespace = "http://ns.adobe.com/xfdf/"

// MediaType is the media type under which XFDF documents are served.
const MediaType = "application/vnd.adobe.xfdf"

// MaxDepth is how deeply elements may nest in a document that Validate, Merge and Parse accept.
const MaxDepth = 64

// ErrMalformed is wrapped, with the line, column and reason, by every error about a document that is not well-formed XFDF.
var ErrMalformed = errors.New("xfdf: malformed document")

// Validate reports whether doc is well-formed XML whose root element is <xfdf>, with or without the XFDF namespace, as Merge and Parse require.
func Validate(doc []byte) error {
	_, err := decode(doc)
	return err
}
