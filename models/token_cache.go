package models

import (
	"crypto/sha256"
	"sync"
	"time"
)

// The API token check of every request, remembered for a moment: an accepted
// token's principal is kept for tokenCacheTTL, keyed by the SHA-256 of the
// whole token, so a burst of requests with one token costs one query and one
// verifier comparison a second instead of one each. A revocation or an
// organization's API switch made through this Store drops the entries it
// concerns at once; one made by another instance (or the operator command)
// is seen within tokenCacheTTL. Refusals are never remembered.
// docs/decisions.md, "The token check is remembered for a second".

// tokenCacheTTL is how long an accepted token is trusted without reading
// its row again: the longest a revocation made elsewhere goes unseen here.
const tokenCacheTTL = time.Second

// tokenCacheMax bounds the entries (one per token used in the last second).
const tokenCacheMax = 4096

// tokenCache remembers accepted tokens. Its clock is the real one, whatever
// the Store's: the TTL bounds real time between instances.
type tokenCache struct {
	mu      sync.Mutex
	entries map[[sha256.Size]byte]*tokenEntry
	now     func() time.Time
}

// tokenEntry is one accepted token: its row and organization as read, and
// when they were read.
type tokenEntry struct {
	token  APIToken
	org    Organization
	loaded time.Time
}

func newTokenCache() *tokenCache {
	return &tokenCache{entries: map[[sha256.Size]byte]*tokenEntry{}, now: time.Now}
}

// get returns a copy of the principal remembered for key, if it is fresh.
func (c *tokenCache) get(key [sha256.Size]byte) (*Principal, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entries[key]
	if e == nil {
		return nil, false
	}
	if c.now().Sub(e.loaded) >= tokenCacheTTL {
		delete(c.entries, key)
		return nil, false
	}
	t, org := e.token, e.org
	return &Principal{Organization: &org, Token: &t}, true
}

// put remembers p under key, as read at loaded (taken before the read, so
// the entry never outlives what the database said by more than the TTL).
func (c *tokenCache) put(key [sha256.Size]byte, p *Principal, loaded time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.entries) >= tokenCacheMax {
		now := c.now()
		for k, e := range c.entries {
			if now.Sub(e.loaded) >= tokenCacheTTL {
				delete(c.entries, k)
			}
		}
		for k := range c.entries {
			if len(c.entries) < tokenCacheMax {
				break
			}
			delete(c.entries, k)
		}
	}
	c.entries[key] = &tokenEntry{token: *p.Token, org: *p.Organization, loaded: loaded}
}

// usedAt records a token's last use written to the database, so its
// remembered row does not ask to write it again.
func (c *tokenCache) usedAt(key [sha256.Size]byte, at *time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.entries[key]; e != nil {
		e.token.LastUsedAt = at
	}
}

// forget drops the entries matching drop.
func (c *tokenCache) forget(drop func(*tokenEntry) bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, e := range c.entries {
		if drop(e) {
			delete(c.entries, k)
		}
	}
}

// forgetToken drops a token's entry (it was revoked).
func (s *Store) forgetToken(id int64) {
	s.tokens.forget(func(e *tokenEntry) bool { return e.token.ID == id })
}

// forgetOrganizationTokens drops the entries of an organization's tokens
// (its API permission changed).
func (s *Store) forgetOrganizationTokens(orgID int64) {
	s.tokens.forget(func(e *tokenEntry) bool { return e.token.OrganizationID == orgID })
}
