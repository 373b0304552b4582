// Package secret makes and checks the random secrets the store hands out:
// split tokens (a selector that finds the row, a verifier kept only as its
// hash) and random hex strings.
package secret

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"strings"
)

// A split token is "<prefix>_<selector>_<verifier>": the selector (96 random
// bits) finds the row, the verifier (256 random bits) proves possession and is
// stored only as its SHA-256, compared in constant time.
const (
	selectorBytes = 12
	verifierBytes = 32
)

// SplitToken is a new token: the plaintext handed out once, the selector
// stored to find the row, and the verifier's hash stored to check it.
type SplitToken struct {
	Plaintext string
	Selector  string
	Hash      []byte
}

// NewSplitToken makes a token "<prefix>_<selector>_<verifier>".
func NewSplitToken(prefix string) (SplitToken, error) {
	sel, err := RandomHex(selectorBytes)
	if err != nil {
		return SplitToken{}, err
	}
	ver, err := RandomHex(verifierBytes)
	if err != nil {
		return SplitToken{}, err
	}
	return SplitToken{Plaintext: prefix + "_" + sel + "_" + ver, Selector: sel, Hash: hashVerifier(ver)}, nil
}

// ParseSplitToken returns the selector and verifier of a token made with prefix.
func ParseSplitToken(prefix, token string) (selector, verifier string, ok bool) {
	rest, found := strings.CutPrefix(token, prefix+"_")
	if !found {
		return "", "", false
	}
	selector, verifier, found = strings.Cut(rest, "_")
	if !found || len(selector) != hex.EncodedLen(selectorBytes) ||
		len(verifier) != hex.EncodedLen(verifierBytes) || !isLowerHex(selector) || !isLowerHex(verifier) {
		return "", "", false
	}
	return selector, verifier, true
}

func hashVerifier(verifier string) []byte {
	sum := sha256.Sum256([]byte(verifier))
	return sum[:]
}

// VerifierMatches compares a presented verifier with a stored hash in constant time.
func VerifierMatches(verifier string, stored []byte) bool {
	return subtle.ConstantTimeCompare(hashVerifier(verifier), stored) == 1
}

// RandomHex returns n random bytes as lowercase hex.
func RandomHex(n int) (string, error) {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// isLowerHex tells whether s is made of lowercase hex digits only, as
// NewSplitToken writes them: anything else is no token and never reaches a query.
func isLowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
