package keyring_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models/keyring"
)

func key(b byte) []byte { return bytes.Repeat([]byte{b}, keyring.SecretKeySize) }

func newKeyring(t *testing.T, current []byte, previous ...[]byte) keyring.Keyring {
	t.Helper()
	k, err := keyring.New(current, previous...)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestKeyringSealsAndOpens(t *testing.T) {
	k1 := newKeyring(t, key(1))
	sealed, err := k1.Seal([]byte("whsec_abc"), "row-1")
	if err != nil || !keyring.IsSealed(sealed) || strings.Contains(sealed, "whsec_abc") {
		t.Fatalf("sealed %q, %v", sealed, err)
	}
	if pt, current, err := k1.Open(sealed, "row-1"); err != nil || string(pt) != "whsec_abc" || !current {
		t.Fatalf("open: %q %v %v", pt, current, err)
	}
	if _, _, err := k1.Open(sealed, "row-2"); err == nil {
		t.Fatal("a value moved to another row opened")
	}
	// During a rotation the previous key opens, and says the value is not current.
	k2 := newKeyring(t, key(2), key(1))
	if pt, current, err := k2.Open(sealed, "row-1"); err != nil || string(pt) != "whsec_abc" || current {
		t.Fatalf("open with the previous key: %q %v %v", pt, current, err)
	}
	if _, _, err := newKeyring(t, key(2)).Open(sealed, "row-1"); err != keyring.ErrUnknownSecretKey {
		t.Fatalf("without the old key: %v", err)
	}
	if _, err := keyring.New([]byte("short")); err == nil {
		t.Fatal("a short key was accepted")
	}
	// The derived key is stable, 32 bytes, and depends on the session secret.
	a, _ := keyring.DeriveSecretKey(key(7))
	b, _ := keyring.DeriveSecretKey(key(7))
	c, _ := keyring.DeriveSecretKey(key(8))
	if len(a) != keyring.SecretKeySize || !bytes.Equal(a, b) || bytes.Equal(a, c) {
		t.Fatal("DeriveSecretKey is not a stable per-secret 32-byte key")
	}
	for in, ok := range map[string]bool{
		"AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE=": true, "AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE": true,
		"AQEB": false, "not base64!": false,
	} {
		if _, err := keyring.ParseSecretKey(in); (err == nil) != ok {
			t.Errorf("ParseSecretKey(%q): %v", in, err)
		}
	}
}
