// Package templatematch recognises a document as a known form: it keeps a
// compact fingerprint of each template document (its page count, its page
// sizes and a MinHash signature of each page's word shingles), scores two
// fingerprints in 0–1, and indexes fingerprints by locality-sensitive hashing
// so that a query looks only at the templates that share a band of a page's
// signature with it, never at every template's text.
//
// It imports nothing of the project: its caller turns a document's page
// layouts into Pages (models/template_fingerprint.go) and keeps one Index per
// organization. Every input is bounded (MaxPages, MaxSignedPages,
// MaxPageTextBytes, MaxPageWords), since the text comes from uploaded PDFs.
// docs/decisions.md, "Template matching", says why it is built this way.
package templatematch
