package pdf

// Decryption of files that open without a password. A PDF encrypted with an
// empty user password (owner-password restrictions only) is shown by every
// viewer without asking; such an upload is decrypted and stored decrypted.
// pdfcpu reads the file with the empty password and writes it back without
// encryption. It decodes object streams on the way (within its decode limit,
// set to l's per-stream cap); page content stays encoded, and the decrypted
// copy is then inspected like any upload, under every decode cap.

import (
	"bytes"
	"context"
	"errors"
	"io"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
)

// decrypt returns the decrypted copy of the encrypted PDF in r, opened with
// an empty user password. A file that needs a password fails with
// ErrPasswordRequired; one whose encryption pdfcpu cannot open (a public-key
// security handler, say) with ErrEncrypted.
func (l Limits) decrypt(ctx context.Context, r io.ReadSeeker) ([]byte, error) {
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	conf := newConfig(l)
	conf.Cmd = model.DECRYPT
	conf.UserPW, conf.OwnerPW = "", ""
	pc, err := pdfcpu.ReadWithContext(ctx, r, conf)
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return nil, ctxErr
		}
		if errors.Is(err, pdfcpu.ErrWrongPassword) {
			return nil, ErrPasswordRequired
		}
		if errors.Is(err, pdfcpu.ErrUnsupportedEncryptionFeature) || pc == nil || pc.E == nil && pc.Encrypt != nil {
			return nil, ErrEncrypted
		}
		return nil, classify(ctx, err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := api.WriteContext(pc, &out); err != nil {
		return nil, malformed("write the decrypted copy: %v", err)
	}
	return out.Bytes(), nil
}
