package pdf

// Decryption for the decode pre-scan (scan.go). An encrypted file's streams
// are measured against the decode caps before pdfcpu decrypts anything
// (Mend): each stream is decrypted on the way into the counter, never held.
// This file derives the key the way pdfcpu does when it opens a file with
// empty passwords (the standard security handler of ISO 32000-1 7.6.3 and
// ISO 32000-2 7.6.4.3: RC4 and AES-128 keys from MD5, AES-256 keys from
// SHA-2), and decrypts streams as pdfcpu does (its choice of cipher kept,
// so that what is measured is what pdfcpu will decode). A file whose key
// cannot be derived is refused here: ErrPasswordRequired when no empty
// password opens it, ErrEncrypted for a handler pdfcpu does not support.

import (
	"bufio"
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/md5"
	"crypto/rc4"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// passwordPadding pads passwords (ISO 32000-1, 7.6.3.3, algorithm 2).
var passwordPadding = []byte("\x28\xbf\x4e\x5e\x4e\x75\x8a\x41\x64\x00\x4e\x56\xff\xfa\x01\x08\x2e\x2e\x00\xb6\xd0\x68\x3e\x80\x2f\x0c\xa9\xfe\x64\x53\x69\x7a")

// maxEncryptDictBytes caps the encryption dictionary the pre-scan reads.
const maxEncryptDictBytes = 64 << 10

// streamCrypt decrypts the streams of one file.
type streamCrypt struct {
	key []byte
	r   int  // the handler's revision
	aes bool // streams use AES (a crypt filter of method AESV2 or AESV3)
	// encryptMetadata is false when metadata streams are stored in clear.
	encryptMetadata bool
}

// encryption is what the trailer says about a file's encryption.
type encryption struct {
	// dict is the /Encrypt entry: a dictionary or a reference to one.
	dict types.Object
	// id is the first element of the trailer's /ID, nil when none.
	id []byte
}

// openCrypt reads the encryption dictionary the trailer names (at a file
// offset among entries) and derives the file key for empty passwords.
func openCrypt(ctx context.Context, src *source, base int64, enc encryption, entries []xrefEntry) (*streamCrypt, error) {
	d, ok := enc.dict.(types.Dict)
	if ref, isRef := enc.dict.(types.IndirectRef); isRef {
		var err error
		if d, err = encryptDictAt(ctx, src, base, ref, entries); err != nil {
			return nil, err
		}
		ok = true
	}
	if !ok {
		return nil, fmt.Errorf("%w: unreadable encryption dictionary", ErrEncrypted)
	}
	return newStreamCrypt(d, enc.id)
}

// encryptDictAt reads the dictionary of object ref, stored at a file offset.
func encryptDictAt(ctx context.Context, src *source, base int64, ref types.IndirectRef, entries []xrefEntry) (types.Dict, error) {
	num := ref.ObjectNumber.Value()
	for _, e := range entries {
		if e.obj != num {
			continue
		}
		head, err := src.readAt(base+e.off, maxEncryptDictBytes)
		if err != nil {
			return nil, err
		}
		_, _, n, ok := objHeader(head)
		if !ok {
			break
		}
		s := string(head[n:])
		o, err := model.ParseObjectContext(ctx, &s, 0, 16)
		if d, isDict := o.(types.Dict); err == nil && isDict {
			return d, nil
		}
		break
	}
	return nil, fmt.Errorf("%w: the encryption dictionary (object %d) is not a dictionary at a file offset", ErrEncrypted, num)
}

// newStreamCrypt derives the key of a standard security handler for empty
// passwords, trying the owner password first as pdfcpu does.
func newStreamCrypt(d types.Dict, id []byte) (*streamCrypt, error) {
	unsupported := func(what string) error { return fmt.Errorf("%w: %s", ErrEncrypted, what) }
	if f := d.NameEntry("Filter"); f == nil || *f != "Standard" {
		return nil, unsupported("not the standard security handler")
	}
	v, r := d.IntEntry("V"), d.IntEntry("R")
	if v == nil || *v < 1 || *v > 5 || r == nil || *r < 2 || *r > 6 {
		return nil, unsupported("an unsupported algorithm or revision")
	}
	bits := 40
	switch *v {
	case 2, 4:
		if l := d.IntEntry("Length"); l != nil {
			if *l < 40 || *l > 128 || *l%8 != 0 {
				return nil, unsupported("a bad key length")
			}
			bits = *l
		}
	case 5:
		bits = 256
	}
	o, err1 := d.StringEntryBytes("O")
	u, err2 := d.StringEntryBytes("U")
	p := d.IntEntry("P")
	if err1 != nil || err2 != nil || p == nil {
		return nil, unsupported("a bad /O, /U or /P")
	}
	c := &streamCrypt{r: *r, encryptMetadata: true}
	if emd := d.BooleanEntry("EncryptMetadata"); emd != nil {
		c.encryptMetadata = *emd
	}
	if *v == 4 || *v == 5 {
		if stmf := d.NameEntry("StmF"); stmf != nil && *stmf != "Identity" {
			cf, _ := d.DictEntry("CF").Find(*stmf)
			cfd, _ := cf.(types.Dict)
			if cfd == nil {
				return nil, unsupported("a missing crypt filter")
			}
			cfm := cfd.NameEntry("CFM")
			c.aes = cfm != nil && (*cfm == "AESV2" || *cfm == "AESV3")
		}
	}
	if c.r >= 5 {
		if len(u) < 48 || len(o) < 48 {
			return nil, unsupported("a bad /O or /U")
		}
		ue, err := d.StringEntryBytes("UE")
		if err != nil || len(ue) != 32 {
			return nil, unsupported("a bad /UE")
		}
		// pdfcpu tries no empty owner password for AES-256.
		if c.key = userKeyAES256(c.r, u, ue); c.key == nil {
			return nil, ErrPasswordRequired
		}
		return c, nil
	}
	keyLen := bits / 8
	if c.r == 2 {
		keyLen = 5
	}
	perm := uint32(int64(*p))
	// The empty owner password first: it recovers the user password.
	if k := c.userKey(ownerToUser(o, c.r, keyLen), o, u, perm, id, keyLen); k != nil {
		c.key = k
		return c, nil
	}
	if c.key = c.userKey(padPassword(nil), o, u, perm, id, keyLen); c.key == nil {
		return nil, ErrPasswordRequired
	}
	return c, nil
}

// padPassword pads or cuts pw to 32 bytes.
func padPassword(pw []byte) []byte {
	return append(append([]byte{}, pw...), passwordPadding...)[:32]
}

// fileKey is algorithm 2: the file key of the padded user password pw.
func (c *streamCrypt) fileKey(pw, o []byte, perm uint32, id []byte, keyLen int) []byte {
	h := md5.New()
	h.Write(pw)
	h.Write(o)
	h.Write([]byte{byte(perm), byte(perm >> 8), byte(perm >> 16), byte(perm >> 24)})
	h.Write(id)
	if c.r == 4 && !c.encryptMetadata {
		h.Write([]byte{0xff, 0xff, 0xff, 0xff})
	}
	key := h.Sum(nil)
	if c.r >= 3 {
		for range 50 {
			s := md5.Sum(key[:keyLen])
			key = s[:]
		}
	}
	return key[:keyLen]
}

// userKey returns the file key when the padded user password pw opens the
// file (algorithms 4 and 5, checked against /U), else nil.
func (c *streamCrypt) userKey(pw, o, u []byte, perm uint32, id []byte, keyLen int) []byte {
	key := c.fileKey(pw, o, perm, id, keyLen)
	if c.r == 2 {
		want := rc4Apply(key, passwordPadding)
		if subtle.ConstantTimeCompare(u, want) == 1 {
			return key
		}
		return nil
	}
	sum := md5.Sum(append(append([]byte{}, passwordPadding...), id...))
	want := rc4Rounds(key, sum[:], false)
	if len(u) >= 16 && subtle.ConstantTimeCompare(u[:16], want) == 1 {
		return key
	}
	return nil
}

// ownerToUser is algorithm 7 with an empty owner password: the padded user
// password recovered from /O.
func ownerToUser(o []byte, r, keyLen int) []byte {
	sum := md5.Sum(passwordPadding)
	key := sum[:]
	if r >= 3 {
		for range 50 {
			s := md5.Sum(key)
			key = s[:]
		}
		return rc4Rounds(key[:keyLen], o, true)
	}
	return rc4Apply(key[:5], o)
}

// rc4Apply is RC4 of data with key.
func rc4Apply(key, data []byte) []byte {
	out := make([]byte, len(data))
	c, err := rc4.NewCipher(key)
	if err != nil {
		return out
	}
	c.XORKeyStream(out, data)
	return out
}

// rc4Rounds is RC4 of data twenty times, with key XORed with 0 to 19
// (descending when down): algorithms 3, 5 and 7 of revisions 3 and 4.
func rc4Rounds(key, data []byte, down bool) []byte {
	out := append([]byte{}, data...)
	k := make([]byte, len(key))
	for i := range 20 {
		round := i
		if down {
			round = 19 - i
		}
		for j := range key {
			k[j] = key[j] ^ byte(round)
		}
		out = rc4Apply(k, out)
	}
	return out
}

// userKeyAES256 returns the file key of an AES-256 handler (revision 5 or
// 6) when the empty user password opens it, else nil.
func userKeyAES256(r int, u, ue []byte) []byte {
	hash := func(salt []byte) []byte {
		if r == 5 {
			s := sha256.Sum256(salt)
			return s[:]
		}
		return hashRev6(salt, nil)
	}
	if subtle.ConstantTimeCompare(hash(u[32:40]), u[:32]) != 1 {
		return nil
	}
	block, err := aes.NewCipher(hash(u[40:48]))
	if err != nil {
		return nil
	}
	key := make([]byte, 32)
	cipher.NewCBCDecrypter(block, make([]byte, aes.BlockSize)).CryptBlocks(key, ue)
	return key
}

// hashRev6 is algorithm 2.B of ISO 32000-2 (7.6.4.3.4) for the empty
// password: input is the salt (and for the owner /U), udata the /U part.
func hashRev6(input, udata []byte) []byte {
	s := sha256.Sum256(input)
	k := s[:]
	var e []byte
	for j := 0; j < 64 || int(e[len(e)-1]) > j-32; j++ {
		unit := append(append([]byte{}, k...), udata...)
		k1 := make([]byte, 0, 64*len(unit))
		for range 64 {
			k1 = append(k1, unit...)
		}
		block, err := aes.NewCipher(k[:16])
		if err != nil {
			return nil
		}
		e = make([]byte, len(k1))
		cipher.NewCBCEncrypter(block, k[16:32]).CryptBlocks(e, k1)
		sum := 0
		for _, b := range e[:16] {
			sum += int(b) // 256 ≡ 1 (mod 3): the bytes' sum has the number's remainder
		}
		switch sum % 3 {
		case 0:
			h := sha256.Sum256(e)
			k = h[:]
		case 1:
			h := sha512.Sum384(e)
			k = h[:]
		default:
			h := sha512.Sum512(e)
			k = h[:]
		}
	}
	return k[:32]
}

// encrypts reports whether pdfcpu decrypts the stream with dictionary d
// and filters: every stream but a cross-reference stream, one whose only
// filter is Crypt, and metadata stored in clear.
func (c *streamCrypt) encrypts(d types.Dict, filters []streamFilter) bool {
	if t := d.Type(); t != nil && (*t == "XRef" || *t == "Metadata" && !c.encryptMetadata) {
		return false
	}
	return len(filters) != 1 || filters[0].name != "Crypt"
}

// reader decrypts the data of stream obj gen read from raw, as pdfcpu does.
func (c *streamCrypt) reader(obj, gen int, raw io.Reader) (io.Reader, error) {
	key := c.key
	if c.r < 5 {
		b := append(append([]byte{}, c.key...), byte(obj), byte(obj>>8), byte(obj>>16), byte(gen), byte(gen>>8))
		if c.aes {
			b = append(b, "sAlT"...)
		}
		s := md5.Sum(b)
		key = s[:min(len(c.key)+5, 16)]
	}
	if !c.aes {
		rc, err := rc4.NewCipher(key)
		if err != nil {
			return nil, err
		}
		return &cipher.StreamReader{S: rc, R: raw}, nil
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return &cbcReader{r: bufio.NewReader(raw), block: block}, nil
}

// cbcReader decrypts AES-CBC data whose first block is the IV, block by
// block; a last partial block is dropped (pdfcpu refuses such data).
type cbcReader struct {
	r     io.Reader
	block cipher.Block
	mode  cipher.BlockMode
	in    [32 << 10]byte
	carry int    // bytes of in not yet a whole block
	out   []byte // decrypted bytes not yet returned
	err   error
}

func (c *cbcReader) Read(p []byte) (int, error) {
	if c.mode == nil {
		iv := make([]byte, aes.BlockSize)
		if _, err := io.ReadFull(c.r, iv); err != nil {
			return 0, io.EOF
		}
		c.mode = cipher.NewCBCDecrypter(c.block, iv)
	}
	for len(c.out) == 0 {
		if c.err != nil {
			return 0, c.err
		}
		n, err := c.r.Read(c.in[c.carry:])
		c.carry += n
		whole := c.carry - c.carry%aes.BlockSize
		if whole > 0 {
			buf := make([]byte, whole)
			c.mode.CryptBlocks(buf, c.in[:whole])
			copy(c.in[:], c.in[whole:c.carry])
			c.carry -= whole
			c.out = buf
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = io.EOF
			}
			c.err = err
		}
	}
	n := copy(p, c.out)
	c.out = c.out[n:]
	return n, nil
}
