package pdf

import (
	"errors"
	"fmt"
	"time"
)

// Default caps on the bytes a PDF may expand to when its streams are decoded,
// sized by LimitsForMemory for the default worker (1 GiB, uploads of up to
// 50 MiB). A compressed stream can expand a thousandfold (600 MiB of spaces
// deflate to about 600 KiB), and pdfcpu holds some of what it decodes in
// memory, so an upload's size says nothing about the memory its reading
// takes.
const (
	// DefaultWorkerMemory is the memory a PDF worker may use by default
	// (MARKUPROOM_PDF_WORKER_MEMORY).
	DefaultWorkerMemory int64 = 1 << 30
	// DefaultMaxUploadBytes is the upload limit by default
	// (MARKUPROOM_MAX_UPLOAD_BYTES).
	DefaultMaxUploadBytes int64 = 50 << 20
	// DefaultMaxDecodedStreamBytes caps the decoded size of one stream:
	// LimitsForMemory(DefaultWorkerMemory, DefaultMaxUploadBytes).
	DefaultMaxDecodedStreamBytes int64 = 76 << 20
	// DefaultMaxDecodedFileBytes caps the decoded size of all streams of one
	// file, as DefaultMaxDecodedStreamBytes.
	DefaultMaxDecodedFileBytes int64 = 200 << 20
	// DefaultMaxDecodeWorkBytes caps what the images and font programs of
	// one file decode to in the pre-scan: work, not memory (no reader here
	// holds them), about 2.5 s of inflating.
	DefaultMaxDecodeWorkBytes int64 = 1 << 30
	// DefaultMaxObjects caps the objects in use of one file:
	// LimitsForMemory(DefaultWorkerMemory, …).
	DefaultMaxObjects = int((DefaultWorkerMemory - workerBase) / perObjectBytes)
)

// What reading a PDF holds, measured by BenchmarkPDFMemory (docs/decisions.md,
// "Bounded PDF work"), as LimitsForMemory sizes the caps from it.
const (
	// workerBase is a worker's own memory: the binary and Go's runtime
	// (55 MB of RSS at start), with room.
	workerBase int64 = 64 << 20
	// perFileByte is the peak per byte of the file on the path that holds
	// the most of it, a page edit: the upload, pdfcpu's model of it, the
	// edited copy and its check (4.3–6.3 measured).
	perFileByte = 7
	// perStreamByte is the peak per decoded byte of the one stream being
	// decoded: pdfcpu's growing buffer and the interpreter's copy (3.8
	// measured on a page edit of a 48 MiB content stream).
	perStreamByte = 4
	// perHeldByte is the peak per decoded byte of what pdfcpu holds for the
	// whole read: the object streams, decoded when it reads the file (a
	// buffer grown by doubling: 1.5 on average, 2 at worst for one).
	perHeldByte = 1.5
	// capStep rounds the caps down to a multiple of 4 MiB.
	capStep int64 = 4 << 20
	// perObjectBytes is what one object in use costs a read (660 bytes
	// measured on an upload, 580 on a page edit), three times over.
	perObjectBytes int64 = 2 << 10
)

// LimitsForMemory returns the decode caps for a worker of workerMemory bytes
// reading uploads of up to maxUploadBytes: what is left once the worker's
// own memory and perFileByte times the largest file are set aside is shared
// between the stream being decoded (perStreamByte times the per-stream cap,
// half of it) and the streams pdfcpu holds (perHeldByte times the per-file
// cap, the other half), so a file within the caps fits the worker whatever
// its streams hold. Images and font programs count toward the caps too (the
// pre-scan decodes every stream it can) although no reader of this package
// decodes them. The caps are at least 8 MiB and 24 MiB (a worker too small
// for the largest upload gets those). Limits.MaxLayoutTime is left at its
// default; MaxObjects is what the worker has besides itself at 2 KiB an
// object (at least 50,000).
func LimitsForMemory(workerMemory, maxUploadBytes int64) Limits {
	rest := workerMemory - workerBase - perFileByte*maxUploadBytes
	stream := rest / 2 / perStreamByte
	file := int64(float64(rest-perStreamByte*stream) / perHeldByte)
	stream, file = stream/capStep*capStep, file/capStep*capStep
	objects := int(max(workerMemory-workerBase, 0) / perObjectBytes)
	return Limits{MaxStreamBytes: max(stream, 8<<20), MaxFileBytes: max(file, 24<<20), MaxObjects: max(objects, 50_000)}
}

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
	// MaxDecodeWorkBytes is the largest size the images and font programs
	// of one file may decode to together in the pre-scan (work, not memory).
	MaxDecodeWorkBytes int64
	// MaxObjects is the most objects in use a file may have (each costs a
	// read memory); past it the read fails with an *ObjectsError.
	MaxObjects int
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
	if l.MaxDecodeWorkBytes <= 0 {
		l.MaxDecodeWorkBytes = DefaultMaxDecodeWorkBytes
	}
	if l.MaxObjects <= 0 {
		l.MaxObjects = DefaultMaxObjects
	}
	return l
}

// ErrTooManyObjects reports a PDF with more objects in use than
// Limits.MaxObjects; returned errors are *ObjectsError values that wrap it.
var ErrTooManyObjects = errors.New("the PDF has too many objects")

// ObjectsError says how many objects a PDF has and the cap it passed.
type ObjectsError struct {
	Objects, Limit int
}

func (e *ObjectsError) Error() string {
	return fmt.Sprintf("%v: %d in use, at most %d", ErrTooManyObjects, e.Objects, e.Limit)
}

// Unwrap makes errors.Is(err, ErrTooManyObjects) true.
func (e *ObjectsError) Unwrap() error { return ErrTooManyObjects }

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
