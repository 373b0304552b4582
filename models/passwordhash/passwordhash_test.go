package passwordhash

import (
	"strings"
	"testing"
)

func TestHashAndVerifyPassword(t *testing.T) {
	h, err := Hash("s3cret-Pässword")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "$argon2id$v=19$") || strings.Contains(h, "s3cret") {
		t.Fatalf("unexpected hash format %q", h)
	}
	if !Verify(h, "s3cret-Pässword") {
		t.Fatal("the right password is refused")
	}
	for _, wrong := range []string{"", "s3cret-Password", "s3cret-Pässword "} {
		if Verify(h, wrong) {
			t.Fatalf("wrong password %q accepted", wrong)
		}
	}
	h2, _ := Hash("s3cret-Pässword")
	if h == h2 {
		t.Fatal("two hashes of one password are equal: salt missing")
	}
	for _, bad := range []string{"", "plain", "$argon2id$v=19$m=0,t=1,p=1$AAAA$AAAA", "$2a$10$abc"} {
		if Verify(bad, "x") {
			t.Fatalf("malformed hash %q verified", bad)
		}
	}
}

// The dummy hash verified for refusals without a real hash must cost what a
// real one does: it decodes, with HashPassword's parameters and key length.
func TestDummyPasswordHashCostsWhatARealOneDoes(t *testing.T) {
	real, err := Hash("x")
	if err != nil {
		t.Fatal(err)
	}
	wantParams, _, wantKey, err := decodeArgonHash(real)
	if err != nil {
		t.Fatal(err)
	}
	params, salt, key, err := decodeArgonHash(DummyHash)
	if err != nil {
		t.Fatalf("the dummy hash does not decode, so nothing would be hashed: %v", err)
	}
	if params != wantParams || len(key) != len(wantKey) || len(salt) != argonSaltLen {
		t.Fatalf("dummy %+v (salt %d, key %d bytes), real %+v (key %d bytes)", params, len(salt), len(key), wantParams, len(wantKey))
	}
}
