package pdf

import (
	"bytes"
	"context"
	"crypto/md5"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// encryptedFiles are files encrypted with an empty user password by
// pdfcpu (each revision it writes), qpdf and the producer corpus's tools,
// and one that needs a password.
func encryptedFiles(t *testing.T) map[string][]byte {
	t.Helper()
	api.DisableConfigDir()
	plain, err := Sample(2, "Secret")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for name, conf := range map[string]*model.Configuration{
		"pdfcpu RC4-40 (R2)":    model.NewRC4Configuration("", "owner", 40),
		"pdfcpu RC4-128 (R3)":   model.NewRC4Configuration("", "owner", 128),
		"pdfcpu AES-128 (R4)":   model.NewAESConfiguration("", "owner", 128),
		"pdfcpu AES-256 (R6)":   model.NewAESConfiguration("", "owner", 256),
		"pdfcpu user password":  model.NewAESConfiguration("secret", "owner", 128),
		"pdfcpu RC4 user pw":    model.NewRC4Configuration("secret", "owner", 128),
		"pdfcpu AES-256 userpw": model.NewAESConfiguration("secret", "owner", 256),
	} {
		var out bytes.Buffer
		if err := api.Encrypt(bytes.NewReader(plain), &out, conf); err != nil {
			t.Fatal(err)
		}
		files[name] = out.Bytes()
	}
	for _, name := range []string{
		"qpdf-aes256.pdf", "qpdf-rc4-40.pdf", "qpdf-aes128-form.pdf",
		"producers/chromium.aes128.pdf", "producers/enscript.rc4-40.pdf", "producers/go-fpdf.aes128.pdf",
		"producers/libreoffice.aes256.pdf", "producers/pdflib-form.aes256.pdf", "producers/php-tcpdf.rc4-128.pdf",
		"producers/reportlab.aes256.pdf", "producers/neg-user-password.pdf",
	} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = b
	}
	return files
}

// The pre-scan's key is pdfcpu's, for every encryption pdfcpu opens with
// empty passwords, and it refuses the files pdfcpu refuses.
func TestStreamCryptKeyIsPdfcpus(t *testing.T) {
	ctx := context.Background()
	for name, b := range encryptedFiles(t) {
		t.Run(name, func(t *testing.T) {
			src := &source{r: bytes.NewReader(b), size: int64(len(b))}
			base, err := findHeader(src)
			if err != nil {
				t.Fatal(err)
			}
			xr, err := checkStructure(ctx, src, base, DefaultLimits())
			if err != nil || !xr.encrypted {
				t.Fatalf("checkStructure: encrypted %t, %v", xr != nil && xr.encrypted, err)
			}
			c, err := openCrypt(ctx, src, base, xr.enc, xr.inUse)
			conf := newConfig(DefaultLimits())
			conf.Cmd = model.DECRYPT
			pc, perr := pdfcpu.ReadWithContext(ctx, bytes.NewReader(b), conf)
			if errors.Is(perr, pdfcpu.ErrWrongPassword) {
				if !errors.Is(err, ErrPasswordRequired) {
					t.Fatalf("pdfcpu needs a password; openCrypt = %v", err)
				}
				return
			}
			if perr != nil {
				t.Fatalf("pdfcpu: %v", perr)
			}
			if err != nil {
				t.Fatalf("openCrypt = %v; pdfcpu opens the file", err)
			}
			if !bytes.Equal(c.key, pc.EncKey) || c.aes != pc.AES4Streams || c.r != pc.E.R {
				t.Errorf("key %x (AES %t, R%d), pdfcpu's %x (AES %t, R%d)", c.key, c.aes, c.r, pc.EncKey, pc.AES4Streams, pc.E.R)
			}
		})
	}
}

// An empty owner password opens a file whatever its user password, as in
// pdfcpu: the user password is recovered from /O (algorithm 7).
func TestStreamCryptEmptyOwnerPassword(t *testing.T) {
	id := []byte("0123456789abcdef")
	ownerKey := func(pw []byte) []byte {
		s := md5.Sum(padPassword(pw))
		k := s[:]
		for range 50 {
			s := md5.Sum(k)
			k = s[:]
		}
		return k
	}
	for _, tt := range []struct {
		owner string
		want  error
	}{{"", nil}, {"owner", ErrPasswordRequired}} {
		o := rc4Rounds(ownerKey([]byte(tt.owner)), padPassword([]byte("secret")), false)
		c := &streamCrypt{r: 3, encryptMetadata: true}
		key := c.fileKey(padPassword([]byte("secret")), o, 0xfffffffc, id, 16)
		sum := md5.Sum(append(append([]byte{}, passwordPadding...), id...))
		u := append(rc4Rounds(key, sum[:], false), make([]byte, 16)...)
		d := types.Dict{
			"Filter": types.Name("Standard"), "V": types.Integer(2), "R": types.Integer(3), "Length": types.Integer(128),
			"P": types.Integer(-4), "O": types.HexLiteral(hexOf(o)), "U": types.HexLiteral(hexOf(u)),
		}
		got, err := newStreamCrypt(d, id)
		if !errors.Is(err, tt.want) || err == nil && !bytes.Equal(got.key, key) {
			t.Errorf("owner password %q: %v, want %v and the user password's key", tt.owner, err, tt.want)
		}
	}
}

func hexOf(b []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 2*len(b))
	for _, c := range b {
		out = append(out, digits[c>>4], digits[c&15])
	}
	return string(out)
}
