// Package keyring seals the secrets the database must keep readable with
// AES-256-GCM, under a current key and any previous ones (a key rotation).
package keyring

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
)

// SecretKeySize is the length of a key that seals stored secrets (AES-256).
const SecretKeySize = 32

// sealedPrefix starts every sealed value: "enc:v1:<key id>:<base64url of nonce‖ciphertext>".
const sealedPrefix = "enc:v1:"

// Keyring seals the secrets the database must keep readable (webhook signing
// secrets, stored Idempotency-Key replays) with AES-256-GCM. The first key
// seals; every key opens, so values sealed with a previous key stay readable
// during a key rotation (MARKUPROOM_SECRET_KEY_PREVIOUS). Each sealed value
// names the id of its key (a hash, not the key) and is bound to where it is
// stored (the additional data), so it cannot be moved to another row.
type Keyring struct {
	keys []keyringKey
}

type keyringKey struct {
	id   string
	aead cipher.AEAD
}

// New builds a keyring sealing with current and opening with current
// and every previous key; each key is SecretKeySize bytes.
func New(current []byte, previous ...[]byte) (Keyring, error) {
	var k Keyring
	for i, key := range append([][]byte{current}, previous...) {
		if len(key) != SecretKeySize {
			return Keyring{}, fmt.Errorf("secret key %d has %d bytes, want %d", i, len(key), SecretKeySize)
		}
		block, err := aes.NewCipher(key)
		if err != nil {
			return Keyring{}, err
		}
		aead, err := cipher.NewGCM(block)
		if err != nil {
			return Keyring{}, err
		}
		sum := sha256.Sum256(append([]byte("markuproom key id\x00"), key...))
		id := hex.EncodeToString(sum[:4])
		if k.hasKey(id) {
			continue // the same key twice (current also listed as previous)
		}
		k.keys = append(k.keys, keyringKey{id: id, aead: aead})
	}
	return k, nil
}

// DeriveSecretKey derives the key that seals stored secrets from the session
// secret (HKDF-SHA-256), for servers without MARKUPROOM_SECRET_KEY.
func DeriveSecretKey(sessionSecret []byte) ([]byte, error) {
	if len(sessionSecret) == 0 {
		return nil, errors.New("no session secret to derive the secret key from")
	}
	return hkdf.Key(sha256.New, sessionSecret, nil, "markuproom/secret-key/v1", SecretKeySize)
}

// ParseSecretKey decodes a MARKUPROOM_SECRET_KEY value: SecretKeySize bytes
// in standard or URL-safe base64, padded or not.
func ParseSecretKey(s string) ([]byte, error) {
	s = strings.TrimSpace(s)
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			if len(b) != SecretKeySize {
				return nil, fmt.Errorf("the key has %d bytes, want %d (base64 of 32 random bytes, e.g. `openssl rand -base64 32`)", len(b), SecretKeySize)
			}
			return b, nil
		}
	}
	return nil, errors.New("the key is not base64 (use base64 of 32 random bytes, e.g. `openssl rand -base64 32`)")
}

// IsZero reports a keyring without keys.
func (k Keyring) IsZero() bool { return len(k.keys) == 0 }

// Ephemeral is a keyring with a random key, for a store built without one
// (tests): what it seals is unreadable after the process ends.
func Ephemeral() Keyring {
	key := make([]byte, SecretKeySize)
	_, _ = rand.Read(key)
	k, _ := New(key)
	return k
}

func (k Keyring) hasKey(id string) bool {
	for _, kk := range k.keys {
		if kk.id == id {
			return true
		}
	}
	return false
}

// Seal encrypts plaintext with the current key, bound to aad (where the
// value is stored).
func (k Keyring) Seal(plaintext []byte, aad string) (string, error) {
	if k.IsZero() {
		return "", errors.New("no secret key configured")
	}
	cur := k.keys[0]
	nonce := make([]byte, cur.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", err
	}
	out := cur.aead.Seal(nonce, nonce, plaintext, []byte(aad))
	return sealedPrefix + cur.id + ":" + base64.RawURLEncoding.EncodeToString(out), nil
}

// CurrentPrefix starts every value sealed with the current key.
func (k Keyring) CurrentPrefix() string { return sealedPrefix + k.keys[0].id + ":" }

// IsSealed reports whether a stored value is sealed (not a legacy plaintext).
func IsSealed(stored string) bool { return strings.HasPrefix(stored, sealedPrefix) }

// ErrUnknownSecretKey reports a sealed value whose key is not in the keyring.
var ErrUnknownSecretKey = errors.New("the value was sealed with a key this server does not have (MARKUPROOM_SECRET_KEY / MARKUPROOM_SECRET_KEY_PREVIOUS)")

// Open decrypts a sealed value; current tells whether it was sealed with
// the current key (otherwise it should be sealed again).
func (k Keyring) Open(sealed string, aad string) (plaintext []byte, current bool, err error) {
	rest, ok := strings.CutPrefix(sealed, sealedPrefix)
	if !ok {
		return nil, false, errors.New("the value is not sealed")
	}
	id, data, ok := strings.Cut(rest, ":")
	if !ok {
		return nil, false, errors.New("the sealed value is malformed")
	}
	raw, err := base64.RawURLEncoding.DecodeString(data)
	if err != nil {
		return nil, false, errors.New("the sealed value is malformed")
	}
	for i, kk := range k.keys {
		if kk.id != id {
			continue
		}
		n := kk.aead.NonceSize()
		if len(raw) < n {
			return nil, false, errors.New("the sealed value is malformed")
		}
		pt, err := kk.aead.Open(nil, raw[:n], raw[n:], []byte(aad))
		if err != nil {
			return nil, false, errors.New("the sealed value does not open (altered, or moved from another row)")
		}
		return pt, i == 0, nil
	}
	return nil, false, ErrUnknownSecretKey
}

// OpenStored reads a stored secret that is either sealed or, written before
// secrets were sealed, plaintext; reseal tells whether it should be sealed
// (again) with the current key.
func (k Keyring) OpenStored(stored, aad string) (plaintext string, reseal bool, err error) {
	if stored == "" {
		return "", false, nil
	}
	if !IsSealed(stored) {
		return stored, true, nil
	}
	pt, current, err := k.Open(stored, aad)
	if err != nil {
		return "", false, err
	}
	return string(pt), !current, nil
}
