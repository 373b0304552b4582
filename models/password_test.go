package models

import (
	"strings"
	"testing"
)

func TestHashAndVerifyPassword(t *testing.T) {
	h, err := HashPassword("s3cret-Pässword")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "$argon2id$v=19$") || strings.Contains(h, "s3cret") {
		t.Fatalf("unexpected hash format %q", h)
	}
	if !VerifyPassword(h, "s3cret-Pässword") {
		t.Fatal("the right password is refused")
	}
	for _, wrong := range []string{"", "s3cret-Password", "s3cret-Pässword "} {
		if VerifyPassword(h, wrong) {
			t.Fatalf("wrong password %q accepted", wrong)
		}
	}
	h2, _ := HashPassword("s3cret-Pässword")
	if h == h2 {
		t.Fatal("two hashes of one password are equal: salt missing")
	}
	for _, bad := range []string{"", "plain", "$argon2id$v=19$m=0,t=1,p=1$AAAA$AAAA", "$2a$10$abc"} {
		if VerifyPassword(bad, "x") {
			t.Fatalf("malformed hash %q verified", bad)
		}
	}
}
