package pdf

import (
	"errors"
	"fmt"
)

// MaxPages is the largest page count Inspect accepts.
const MaxPages = 2000

var (
	// ErrPageOutOfRange reports a page edit naming a page the document does not have.
	ErrPageOutOfRange = errors.New("no such page")
	// ErrLastPage reports an attempt to delete the only page of a document.
	ErrLastPage = errors.New("the last page of a document cannot be deleted")
	// ErrNotPDF reports input that does not start with a PDF header (HTML, images, text, empty files).
	ErrNotPDF = errors.New("not a PDF file")
	// ErrEncrypted reports an encrypted PDF: Inspect refuses every encryption
	// (Mend decrypts the ones that open without a password); Mend returns it
	// for an encryption it cannot open.
	ErrEncrypted = errors.New("the PDF is encrypted")
	// ErrMalformed reports a truncated or damaged PDF; returned errors wrap it with the detail.
	ErrMalformed = errors.New("the PDF is damaged")
	// ErrTooManyPages reports a PDF with more than MaxPages pages.
	ErrTooManyPages = fmt.Errorf("the PDF has more than %d pages", MaxPages)
)

// malformed wraps ErrMalformed with a formatted detail.
func malformed(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrMalformed, fmt.Sprintf(format, args...))
}

// ErrPasswordRequired reports an encrypted PDF that does not open with an
// empty user password: a person must type a password to open it.
var ErrPasswordRequired = errors.New("the PDF needs a password to open")
