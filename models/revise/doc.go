// Package revise carries a document's tags from one version of the document
// to the next by the words around each tag (docs/revise.md). It reads only
// what it is given — each version's pages with their printed words and the
// old version's tags — and imports nothing of the store or the PDF reader,
// so the store, the API and the tests share one mapping.
//
// The pages are aligned first by their text (shingles of three words in
// reading order), so inserted, removed and reordered pages are known; each
// tag's context (the label on its line or above it and the nearest words
// each way) is then found on the new pages the tag's page went to, and the
// tag moves by its context's offset, its size kept. A tag whose context
// cannot be found with enough confidence stays on the best page at its old
// position and is flagged with a reason code. No tag is ever dropped.
package revise
