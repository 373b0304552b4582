// Package pdfjob is the work done on uploaded PDFs, as jobs for the PDF
// workers (package pdfworker): the kinds, their arguments and results, the
// Handler a worker runs them with, and the functions the server calls to
// run each one in a worker. No PDF is parsed in the server process: every
// reader of an upload's bytes (the check, the repair pass and decryption,
// page boxes, detection, fingerprints, page edits, the anchor search) runs
// through here (docs/decisions.md, "PDF workers").
//
// A failure about the input travels as a code with arguments and comes back
// as the same error the pdf package returns (errors.Is and errors.As work
// as if the job had run in process), so callers map it as before.
package pdfjob
