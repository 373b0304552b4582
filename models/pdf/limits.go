package pdf

import (
	"errors"
	"fmt"
	"time"
)

// Default caps on the bytes a PDF may expand to when its streams are decoded.
// A compressed stream can expand a thousandfold (600 MiB of spaces deflate
// to about 600 KiB), and pdfcpu holds what it decodes in memory, so an
// upload's size says nothing about the memory its reading takes.
const (
	// DefaultMaxDecodedStreamBytes caps the decoded size of one stream.
	DefaultMaxDecodedStreamBytes int64 = 32 << 20
	// DefaultMaxDecodedFileBytes caps the decoded size of all streams of one file.
	DefaultMaxDecodedFileBytes int64 = 96 << 20
)

// ErrExpandsTooMuch reports a PDF whose streams decode to more bytes than the
// Limits allow; returned errors are *ExpandsError values that wrap it.
var ErrExpandsTooMuch = errors.New("the PDF expands to too many bytes when decoded")

// Limits bounds the work of reading one PDF. The zero value means the
// defaults. Every function of this package that reads a PDF is a method of
// Limits; the package-level functions use DefaultLimits.
type Limits struct {
	// MaxStreamBytes is the largest decoded size of one stream.
	MaxStreamBytes int64
	// MaxFileBytes is the largest decoded size of all streams of the file together.
	MaxFileBytes int64
	// MaxLayoutTime is the wall-clock time reading one document's layout
	// may take (DefaultMaxLayoutTime when zero); past it the layout fails
	// with ErrTooComplex.
	MaxLayoutTime time.Duration
	// MaxOutputBytes is the largest file Mend and the page edits may write;
	// they stop as soon as their output passes it, with an
	// *OutputTooLargeError. Zero means no cap (the server sets the upload
	// limit: a stored file is never larger than an upload may be).
	MaxOutputBytes int64
}

// DefaultLimits returns the default caps.
func DefaultLimits() Limits {
	return Limits{MaxStreamBytes: DefaultMaxDecodedStreamBytes, MaxFileBytes: DefaultMaxDecodedFileBytes}
}

// withDefaults fills the fields left at zero (or negative).
func (l Limits) withDefaults() Limits {
	if l.MaxStreamBytes <= 0 {
		l.MaxStreamBytes = DefaultMaxDecodedStreamBytes
	}
	if l.MaxFileBytes <= 0 {
		l.MaxFileBytes = DefaultMaxDecodedFileBytes
	}
	if l.MaxLayoutTime <= 0 {
		l.MaxLayoutTime = DefaultMaxLayoutTime
	}
	return l
}

// ExpandsError says which cap a PDF passed, and where.
type ExpandsError struct {
	// Object is the number of the stream object being decoded when the cap was passed.
	Object int
	// Limit is the cap that was passed, in bytes.
	Limit int64
	// WholeFile is true when the cap on all streams together was passed,
	// false when one stream alone passed the per-stream cap.
	WholeFile bool
}

func (e *ExpandsError) Error() string {
	if e.WholeFile {
		return fmt.Sprintf("%v: its streams decode to more than %s together (passed while decoding object %d)", ErrExpandsTooMuch, MiB(e.Limit), e.Object)
	}
	return fmt.Sprintf("%v: stream object %d decodes to more than %s", ErrExpandsTooMuch, e.Object, MiB(e.Limit))
}

// Unwrap makes errors.Is(err, ErrExpandsTooMuch) true.
func (e *ExpandsError) Unwrap() error { return ErrExpandsTooMuch }

// ErrOutputTooLarge reports a mended or edited PDF larger than
// Limits.MaxOutputBytes; returned errors are *OutputTooLargeError values
// that wrap it.
var ErrOutputTooLarge = errors.New("the PDF written would be larger than the limit")

// OutputTooLargeError says which cap a written PDF passed.
type OutputTooLargeError struct {
	// Limit is Limits.MaxOutputBytes, in bytes.
	Limit int64
}

func (e *OutputTooLargeError) Error() string {
	return fmt.Sprintf("%v of %s", ErrOutputTooLarge, MiB(e.Limit))
}

// Unwrap makes errors.Is(err, ErrOutputTooLarge) true.
func (e *OutputTooLargeError) Unwrap() error { return ErrOutputTooLarge }

// MiB formats a byte count in MiB for messages ("32 MiB", "0.5 MiB").
func MiB(n int64) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}
