package pdf

// Mend makes an upload that Inspect refuses for its structure or its
// encryption into the file that viewers show, when they would show one: the
// repair pass (repair.go) rebuilds damaged cross-reference data, and a file
// encrypted with an empty user password is decrypted (decrypt.go). The
// result is a new file that the caller inspects like any other upload, so
// every check and decode cap applies to it. See docs/decisions.md.
//
// The work is bounded before it starts: the repair pass counts each object
// stream against the decode caps before decoding it; an encrypted file's
// streams are all measured, decrypted on the way, before pdfcpu decrypts
// anything; the copy written stops at its cap (Limits.MaxOutputBytes).

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
)

// Codes of the repairs Mend makes, as the upload answer lists them.
const (
	// RepairEOFAdded: the %%EOF marker was missing after a complete file.
	RepairEOFAdded = "eof_added"
	// RepairLineEndings: every line feed had become CR LF (a text-mode
	// transfer); the original bytes were restored.
	RepairLineEndings = "line_endings_restored"
	// RepairXRefRebuilt: the cross-reference data was rebuilt by scanning
	// the file for its objects.
	RepairXRefRebuilt = "xref_rebuilt"
	// RepairStreamLength: a stream's /Length did not match its data; the
	// length up to its endstream keyword was used.
	RepairStreamLength = "stream_length_fixed"
)

// Mended is what Mend did to a file.
type Mended struct {
	// Content is the mended file; nil when Mend found nothing to change.
	Content []byte
	// Decrypted says the file was encrypted with an empty user password
	// and Content is its decrypted copy.
	Decrypted bool
	// Repairs lists the repairs made (Repair* codes), in order; empty when none.
	Repairs []string
}

// Mend is DefaultLimits().Mend.
func Mend(ctx context.Context, r io.ReadSeeker) (Mended, error) {
	return DefaultLimits().Mend(ctx, r)
}

// Mend returns a repaired and decrypted copy of r when its cross-reference
// data is damaged in a way viewers repair or it is encrypted with an empty
// user password, and Mended{} (no Content) when neither is the case. It
// does not inspect the copy: callers run Inspect on it as on any upload.
//
// Errors wrap ErrNotPDF, ErrMalformed (damage the repair pass does not mend:
// a file cut short above all), ErrPasswordRequired, ErrEncrypted (an
// encryption this package cannot open), ErrExpandsTooMuch, ErrOutputTooLarge
// (the copy would pass l.MaxOutputBytes), or are the context's error. Mend
// holds at most twice maxRepairBytes in memory for a repair.
func (l Limits) Mend(ctx context.Context, r io.ReadSeeker) (m Mended, err error) {
	defer func() {
		if p := recover(); p != nil {
			m, err = Mended{}, malformed("internal parser failure: %v", p)
		}
	}()
	if err := ctx.Err(); err != nil {
		return Mended{}, err
	}
	size, err := r.Seek(0, io.SeekEnd)
	if err != nil {
		return Mended{}, fmt.Errorf("pdf: seek: %w", err)
	}
	if size == 0 {
		return Mended{}, ErrNotPDF
	}
	src := &source{r: r, size: size}
	base, err := findHeader(src)
	if err != nil {
		return Mended{}, err
	}
	m = Mended{Repairs: []string{}}
	xr, err := checkStructure(ctx, src, base, l)
	if err != nil {
		if !errors.Is(err, ErrMalformed) {
			return Mended{}, err
		}
		if m.Content, m.Repairs, err = l.repair(ctx, src, base, listed(xr)); err != nil {
			return Mended{}, err
		}
		src = &source{r: bytes.NewReader(m.Content), size: int64(len(m.Content))}
		if base, err = findHeader(src); err != nil {
			return Mended{}, err
		}
		if xr, err = checkStructure(ctx, src, base, l); err != nil {
			return Mended{}, err
		}
	}
	if xr.encrypted {
		// Measured before anything is decrypted: the streams, decrypted
		// on the way into the counter, and the bytes decrypted.
		c, err := openCrypt(ctx, src, base, xr.enc, xr.inUse)
		if err != nil {
			return Mended{}, err
		}
		if err := l.scanStreams(ctx, src, base, xr.inUse, c); err != nil {
			return Mended{}, err
		}
		if m.Content, err = l.decrypt(ctx, src.r); err != nil {
			return Mended{}, err
		}
		m.Decrypted = true
	}
	return m, nil
}

// checkStructure runs the structural checks of Inspect (the end of the file,
// the cross-reference chain, every object at its offset) and returns what
// the cross-reference sections say, whether the trailer names an
// encryption dictionary among it. When only the offsets fail (the end of
// the file and every cross-reference section are whole), it returns the
// sections' word with the error.
func checkStructure(ctx context.Context, src *source, base int64, l Limits) (*xrefResult, error) {
	start, err := findStartXRef(src)
	if err != nil {
		return nil, err
	}
	xr, err := walkXRef(ctx, src, base, start, l)
	if err != nil {
		return nil, err
	}
	if err := verifyOffsets(ctx, src, base, xr.inUse); err != nil {
		return xr, err
	}
	return xr, nil
}

// listed is the set of objects that whole cross-reference data lists in
// use at a file offset, nil without such data. The repair pass takes a
// reference to one of them that the file does not hold for a reference to
// an object never written (cairo 1.16 lists the font subsets it dropped at
// the offset where it reserved their numbers), which ISO 32000-1 7.3.10
// reads as null, not for a file cut short: a cut file has no whole
// cross-reference data at its end.
func listed(xr *xrefResult) map[int]bool {
	if xr == nil {
		return nil
	}
	set := make(map[int]bool, len(xr.inUse))
	for _, e := range xr.inUse {
		set[e.obj] = true
	}
	return set
}
