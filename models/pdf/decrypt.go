package pdf

// Decryption of files that open without a password. A PDF encrypted with an
// empty user password (owner-password restrictions only) is shown by every
// viewer without asking; such an upload is decrypted and stored decrypted.
// pdfcpu reads the file with the empty password, decrypting every string
// and stream (it decodes object streams on the way, within its decode limit,
// set to l's per-stream cap; page content stays encoded). Every object it
// read is then written out unencrypted by the repair pass's writer
// (repair_write.go), numbers kept: pdfcpu's own writer drops objects it does
// not reach (a form field's parents) and rewrites the document's dates.
// The decrypted copy is inspected like any upload, under every decode cap.

import (
	"context"
	"errors"
	"io"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
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
	if pc.EncKey == nil || pc.Root == nil {
		return nil, ErrEncrypted
	}
	rb := newRebuilder(ctx, nil, 0, l)
	rb.objs = map[int]*foundObject{}
	rb.header = []byte("%PDF-" + pc.HeaderVersion.String())
	if pc.HeaderVersion == nil {
		rb.header = []byte("%PDF-1.7")
	}
	encryptNum := -1
	if pc.Encrypt != nil {
		encryptNum = pc.Encrypt.ObjectNumber.Value()
	}
	for num, e := range pc.Table {
		if err := rb.ticker.Tick(); err != nil {
			return nil, err
		}
		if num <= 0 || num == encryptNum || e == nil || e.Free || e.Object == nil {
			continue
		}
		gen := 0
		if e.Generation != nil && e.Offset != nil {
			gen = *e.Generation
		}
		f := &foundObject{num: num, gen: gen}
		switch o := e.Object.(type) {
		case types.ObjectStreamDict, types.XRefStreamDict:
			continue // their objects are listed one by one; a fresh section replaces them
		case types.StreamDict:
			if t := o.Type(); t != nil && (*t == "XRef" || *t == "ObjStm") {
				continue
			}
			f.isStream, f.dict, f.data, f.fixLength = true, o.Dict.Clone().(types.Dict), o.Raw, true
		default:
			f.body = []byte(o.PDFString())
		}
		if err := rb.add(f); err != nil {
			return nil, err
		}
	}
	rb.trailer = types.Dict{"Root": *pc.Root}
	if pc.Info != nil {
		rb.trailer["Info"] = *pc.Info
	}
	if len(pc.ID) > 0 {
		rb.trailer["ID"] = pc.ID
	}
	return rb.write(), nil
}
