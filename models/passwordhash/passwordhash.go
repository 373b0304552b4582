// Package passwordhash hashes and verifies passwords with argon2id (PHC
// string format).
package passwordhash

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/crypto/argon2"
)

// argon2id parameters: OWASP's minimum recommendation (19 MiB, 2 passes, 1 lane).
const (
	argonMemoryKiB = 19 * 1024
	argonTime      = 2
	argonThreads   = 1
	argonKeyLen    = 32
	argonSaltLen   = 16
)

// MaxPasswordLength bounds passwords so hashing cost stays predictable.
const MaxPasswordLength = 256

// Hash returns an argon2id hash of password in PHC string format.
func Hash(password string) (string, error) {
	salt := make([]byte, argonSaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	key := argon2.IDKey([]byte(password), salt, argonTime, argonMemoryKiB, argonThreads, argonKeyLen)
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemoryKiB, argonTime, argonThreads,
		base64.RawStdEncoding.EncodeToString(salt), base64.RawStdEncoding.EncodeToString(key)), nil
}

// Verify reports whether password matches a hash made by Hash.
func Verify(hash, password string) bool {
	params, salt, key, err := decodeArgonHash(hash)
	if err != nil {
		return false
	}
	got := argon2.IDKey([]byte(password), salt, params.time, params.memory, params.threads, uint32(len(key)))
	return subtle.ConstantTimeCompare(got, key) == 1
}

// DummyHash is verified whenever no real hash is (an unknown e-mail, a user
// who is not an admin, an admin without a password), so that every refusal
// costs the same argon2id work as a wrong password. Its parameters are
// Hash's (a test checks).
const DummyHash = "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$0Q5xV3uB2gQe9o1VZQw0m6mV8wJ2fW9aPZQ2o0lHk5c"

type argonParams struct {
	memory  uint32
	time    uint32
	threads uint8
}

func decodeArgonHash(hash string) (argonParams, []byte, []byte, error) {
	var p argonParams
	parts := strings.Split(hash, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return p, nil, nil, errors.New("not an argon2id hash")
	}
	var version int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return p, nil, nil, errors.New("unsupported argon2 version")
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &p.memory, &p.time, &p.threads); err != nil {
		return p, nil, nil, errors.New("bad argon2 parameters")
	}
	if p.memory == 0 || p.memory > 1<<20 || p.time == 0 || p.time > 16 || p.threads == 0 {
		return p, nil, nil, errors.New("argon2 parameters out of range")
	}
	salt, err := base64.RawStdEncoding.DecodeString(parts[4])
	if err != nil {
		return p, nil, nil, err
	}
	key, err := base64.RawStdEncoding.DecodeString(parts[5])
	if err != nil || len(key) < 16 || len(key) > 64 {
		return p, nil, nil, errors.New("bad argon2 key")
	}
	return p, salt, key, nil
}
