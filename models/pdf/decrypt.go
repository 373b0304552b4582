package pdf

// Decryption of files that open without a password. A PDF encrypted with an
// empty user password (owner-password restrictions only) is shown by every
// viewer without asking; such an upload is decrypted and stored decrypted.
// Its streams were measured against the decode caps first, decrypted on the
// way (crypt.go, Mend). pdfcpu then reads the file with the empty password,
// decrypting every string and stream; it decodes no stream but the header
// of each object stream and the one holding the catalog (within l's
// per-stream cap). Every object it read is written out unencrypted by the
// repair pass's writer (repair_write.go), numbers kept and object streams
// kept as they are, decrypted but not decoded: a compressed object stays in
// its object stream, read by no one here, so an object that several
// cross-reference entries name is never copied once per entry, and the copy
// is about the file's size (it stops at its cap). pdfcpu's own writer drops
// objects it does not reach (a form field's parents) and rewrites the
// document's dates. The decrypted copy is inspected like any upload.

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
	size, err := r.Seek(0, io.SeekEnd)
	if err != nil {
		return nil, err
	}
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	rb := newRebuilder(ctx, nil, 0, size, decryptGrowth, l)
	defer rb.cancel()
	out, err := rb.decrypt(r)
	return out, rb.lateOr(err)
}

// decrypt is Limits.decrypt, under the pass's deadline.
func (rb *rebuilder) decrypt(r io.ReadSeeker) ([]byte, error) {
	ctx, l := rb.ctx, rb.limits
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
		if e.ObjectStream != nil && e.ObjectStreamInd != nil {
			// A compressed object stays where it is: its object stream is
			// written decrypted, and the new section names it there.
			f.inStream, f.index = *e.ObjectStream, *e.ObjectStreamInd
			if err := rb.add(f); err != nil {
				return nil, err
			}
			continue
		}
		switch o := e.Object.(type) {
		case types.XRefStreamDict:
			continue // a fresh section replaces it
		case types.ObjectStreamDict:
			f.isStream, f.dict, f.data, f.fixLength = true, o.Dict.Clone().(types.Dict), o.Raw, true
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
	return rb.write()
}
