// Package xfdf turns the tags of an e-signature document into XFDF, Adobe's
// XML annotation format, and merges them into a caller-supplied XFDF
// document.
//
// Every generated tag becomes a <square> annotation whose name starts with
// GeneratedPrefix and whose tag details travel as JSON in a
// <trn-custom-data bytes="…"> child, the convention that Apryse (PDFTron)
// WebViewer reads. Merge keeps everything else the caller wrote, replaces the
// annotations an earlier Merge generated and is idempotent and
// deterministic: the same input always gives byte-identical output.
//
// The package is pure: it does no I/O, keeps no mutable state and writes XML
// only through encoding/xml. Input documents are checked for well-formedness
// (including namespace well-formedness), must not contain a DOCTYPE and may be
// nested at most MaxDepth elements deep; the caller limits their size. They
// are read as UTF-8 whatever encoding they declare, since they reach us as
// JSON strings, and the output always declares UTF-8.
package xfdf
