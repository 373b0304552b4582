package models

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

type splitToken struct {
	plaintext string
	selector  string
	hash      []byte
}

func newSplitToken(prefix string) (splitToken, error) {
	sel, err := randomString(selectorBytes)
	if err != nil {
		return splitToken{}, err
	}
	ver, err := randomString(verifierBytes)
	if err != nil {
		return splitToken{}, err
	}
	return splitToken{plaintext: prefix + "_" + sel + "_" + ver, selector: sel, hash: hashVerifier(ver)}, nil
}

// parseSplitToken returns the selector and verifier of a token made with prefix.
func parseSplitToken(prefix, token string) (selector, verifier string, ok bool) {
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

// verifierMatches compares a presented verifier with a stored hash in constant time.
func verifierMatches(verifier string, stored []byte) bool {
	return subtle.ConstantTimeCompare(hashVerifier(verifier), stored) == 1
}

func randomString(n int) (string, error) {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// isLowerHex tells whether s is made of lowercase hex digits only, as
// newSplitToken writes them: anything else is no token and never reaches a query.
func isLowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
