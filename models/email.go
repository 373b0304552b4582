package models

import (
	"net/mail"
	"strings"
)

// MaxEmailLength is the longest e-mail address accepted (RFC 5321 path limit).
const MaxEmailLength = 254

// ValidEmail reports whether s is a plain addr-spec such as "ann@example.com":
// no display name, no angle brackets, a dot-free-or-dotted domain with at least one dot
// or "localhost", and no surrounding spaces.
func ValidEmail(s string) bool {
	if s == "" || len(s) > MaxEmailLength || strings.TrimSpace(s) != s {
		return false
	}
	addr, err := mail.ParseAddress(s)
	if err != nil || addr.Name != "" || addr.Address != s {
		return false
	}
	at := strings.LastIndexByte(s, '@')
	local, domain := s[:at], s[at+1:]
	if local == "" || len(local) > 64 || domain == "" {
		return false
	}
	if strings.HasPrefix(domain, "[") {
		return false // address literals are not deliverable addresses for signers
	}
	for _, label := range strings.Split(domain, ".") {
		if label == "" || len(label) > 63 || strings.HasPrefix(label, "-") || strings.HasSuffix(label, "-") {
			return false
		}
		for _, r := range label {
			if !(r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 127) {
				return false
			}
		}
	}
	return strings.Contains(domain, ".") || strings.EqualFold(domain, "localhost")
}

// EmailKey is the case-insensitive comparison form of an e-mail address.
func EmailKey(s string) string {
	return strings.ToLower(strings.TrimSpace(s))
}

// checkEmail records a problem when s is blank or not an e-mail address.
func checkEmail(p *Problems, pointer, s string) {
	switch {
	case strings.TrimSpace(s) == "":
		p.Add(pointer, "required", "problem.email.required")
	case !ValidEmail(s):
		p.Add(pointer, "invalid_email", "problem.value.invalid_email", "value", Quoted(truncateForDetail(s)))
	}
}

// truncateForDetail keeps error details short when echoing caller input.
func truncateForDetail(s string) string {
	const max = 80
	r := []rune(s)
	if len(r) <= max {
		return s
	}
	return string(r[:max]) + "…"
}
