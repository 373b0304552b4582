package models

import "testing"

func TestValidEmail(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]bool{
		"ann@example.com":                true,
		"ann.lee+tag@mail.example.co.uk": true,
		"a@localhost":                    true,
		"Ann <ann@example.com>":          false,
		"ann@":                           false,
		"@example.com":                   false,
		"ann@example":                    false,
		"ann@@example.com":               false,
		" ann@example.com":               false,
		"ann@exa mple.com":               false,
		"ann@-example.com":               false,
		"ann@[127.0.0.1]":                false,
		"":                               false,
		"ann@example..com":               false,
	} {
		if got := ValidEmail(s); got != want {
			t.Errorf("ValidEmail(%q) = %v, want %v", s, got, want)
		}
	}
}
