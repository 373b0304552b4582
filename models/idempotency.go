package models

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/markuproom/markuproom/models/keyring"
)

// Idempotency-Key handling (docs/decisions.md, "Idempotency-Key"): the first request with a key claims
// it; its response is stored; a retry with the same key and request returns
// that response; the same key with another request is refused.
const (
	// DefaultIdempotencyTTL is how long keys are kept unless
	// StoreOptions.IdempotencyTTL says otherwise.
	DefaultIdempotencyTTL = 24 * time.Hour
	// idempotencyLease is how long a claimed key may stay pending before a
	// retry may take it over (the first request's process died).
	idempotencyLease = 2 * time.Minute
	// MaxIdempotencyKeyLength bounds keys.
	MaxIdempotencyKeyLength = 255
)

// IdempotencyRecord is a claimed key and, once complete, the stored response.
type IdempotencyRecord struct {
	OrganizationID int64     `gorm:"column:organization_id;primaryKey"`
	Scope          string    `gorm:"column:scope;primaryKey"`
	Key            string    `gorm:"column:idempotency_key;primaryKey"`
	RequestHash    string    `gorm:"column:request_hash"`
	Completed      bool      `gorm:"column:completed"`
	StatusCode     int       `gorm:"column:status_code"`
	ContentType    string    `gorm:"column:content_type"`
	Headers        RawJSON   `gorm:"column:headers"`
	Body           []byte    `gorm:"column:body"`
	CreatedAt      time.Time `gorm:"column:created_at;autoCreateTime:false"`
	LockedUntil    time.Time `gorm:"column:locked_until"`
	ExpiresAt      time.Time `gorm:"column:expires_at"`
}

// TableName implements gorm's tabler.
func (IdempotencyRecord) TableName() string { return "idempotency_keys" }

// Idempotency outcomes of ClaimIdempotencyKey and Idempotent.
var (
	// ErrIdempotencyInProgress: the first request with this key has not finished
	// (Idempotent: not within its wait).
	ErrIdempotencyInProgress = errors.New("a request with this Idempotency-Key is still in progress")
)

// ClaimResult tells what to do with a request that carries a key.
type ClaimResult struct {
	// Replay is the stored response of the first request, when it completed.
	Replay *IdempotencyRecord
}

// ClaimIdempotencyKey claims key for a request whose fingerprint is
// requestHash. It returns an empty ClaimResult when the caller should go on
// and later call CompleteIdempotencyKey (or ReleaseIdempotencyKey); a Replay
// when the same request already completed; a 422 *ValidationError when the
// key was used with another request; ErrIdempotencyInProgress while the
// first request runs.
func (s *Store) ClaimIdempotencyKey(ctx context.Context, orgID int64, scope, key, requestHash string) (ClaimResult, error) {
	now := s.Now()
	rec := &IdempotencyRecord{
		OrganizationID: orgID, Scope: scope, Key: key, RequestHash: requestHash, Headers: RawJSON("{}"), Body: []byte{},
		CreatedAt: now, LockedUntil: now.Add(idempotencyLease), ExpiresAt: now.Add(s.idempotencyTTL),
	}
	db := s.db.WithContext(ctx)
	// Keys past their lifetime, or pending past their lease, give way.
	if err := db.Where("organization_id = ? AND scope = ? AND idempotency_key = ? AND (expires_at <= ? OR (completed = ? AND locked_until <= ?))",
		orgID, scope, key, now, false, now).Delete(&IdempotencyRecord{}).Error; err != nil {
		return ClaimResult{}, mapDBError(err)
	}
	res := db.Clauses(clause.OnConflict{DoNothing: true}).Create(rec)
	if res.Error != nil {
		return ClaimResult{}, mapDBError(res.Error)
	}
	if res.RowsAffected == 1 {
		return ClaimResult{}, nil
	}
	var existing IdempotencyRecord
	err := db.Where("organization_id = ? AND scope = ? AND idempotency_key = ?", orgID, scope, key).Take(&existing).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return ClaimResult{}, ErrIdempotencyInProgress
	}
	if err != nil {
		return ClaimResult{}, mapDBError(err)
	}
	if existing.RequestHash != requestHash {
		return ClaimResult{}, Unprocessable("header:Idempotency-Key", "idempotency_key_reused", "problem.idempotency.reused")
	}
	if !existing.Completed {
		return ClaimResult{}, ErrIdempotencyInProgress
	}
	body, _, err := s.keys.OpenStored(string(existing.Body), idempotencyBodyAAD(orgID, scope, key))
	if err != nil {
		return ClaimResult{}, fmt.Errorf("the stored response of this Idempotency-Key: %w", err)
	}
	existing.Body = []byte(body)
	return ClaimResult{Replay: &existing}, nil
}

// idempotencyBodyAAD binds a sealed stored response to its key.
func idempotencyBodyAAD(orgID int64, scope, key string) string {
	return fmt.Sprintf("idempotency_keys.body:%d:%s:%s", orgID, scope, key)
}

// sealIdempotencyBodies seals the stored responses that are plaintext or
// sealed with a previous key (see SealStoredSecrets), a batch at a time and
// only those (the table may hold many large bodies); a response that does
// not open any more is deleted (it could never be replayed).
func (s *Store) sealIdempotencyBodies(ctx context.Context) (int, error) {
	current := []byte(s.keys.CurrentPrefix())
	n := 0
	for {
		var recs []IdempotencyRecord
		if err := s.db.WithContext(ctx).
			Where("completed = ? AND expires_at > ? AND substr(body, 1, ?) <> ?", true, s.Now(), len(current), current).
			Limit(100).Find(&recs).Error; err != nil {
			return n, mapDBError(err)
		}
		if len(recs) == 0 {
			return n, nil
		}
		progress := false
		for i := range recs {
			r := &recs[i]
			aad := idempotencyBodyAAD(r.OrganizationID, r.Scope, r.Key)
			where := s.db.WithContext(ctx).Model(&IdempotencyRecord{}).
				Where("organization_id = ? AND scope = ? AND idempotency_key = ? AND body = ?", r.OrganizationID, r.Scope, r.Key, r.Body)
			body := r.Body
			if keyring.IsSealed(string(body)) {
				pt, _, err := s.keys.Open(string(body), aad)
				if err != nil {
					res := where.Delete(&IdempotencyRecord{})
					if res.Error != nil {
						return n, mapDBError(res.Error)
					}
					progress = progress || res.RowsAffected > 0
					continue
				}
				body = pt
			}
			sealed, err := s.keys.Seal(body, aad)
			if err != nil {
				return n, err
			}
			res := where.Update("body", []byte(sealed))
			if res.Error != nil {
				return n, mapDBError(res.Error)
			}
			n += int(res.RowsAffected)
			progress = progress || res.RowsAffected > 0
		}
		if !progress {
			// Nothing sealed in a whole batch: rows another instance keeps
			// sealing with another key (misconfigured); do not loop.
			return n, nil
		}
	}
}

// CompleteIdempotencyKey stores the response of the request that claimed key.
// The body is sealed with the server's key: it may carry a capability (a
// room URL).
func (s *Store) CompleteIdempotencyKey(ctx context.Context, orgID int64, scope, key string, status int, contentType string, headers RawJSON, body []byte) error {
	sealed, err := s.keys.Seal(body, idempotencyBodyAAD(orgID, scope, key))
	if err != nil {
		return err
	}
	body = []byte(sealed)
	return mapDBError(s.db.WithContext(context.WithoutCancel(ctx)).Model(&IdempotencyRecord{}).
		Where("organization_id = ? AND scope = ? AND idempotency_key = ?", orgID, scope, key).
		Updates(map[string]any{"completed": true, "status_code": status, "content_type": contentType, "headers": headers, "body": body}).Error)
}

// ReleaseIdempotencyKey forgets a claim whose request failed in a way worth retrying.
func (s *Store) ReleaseIdempotencyKey(ctx context.Context, orgID int64, scope, key string) error {
	return mapDBError(s.db.WithContext(context.WithoutCancel(ctx)).
		Where("organization_id = ? AND scope = ? AND idempotency_key = ? AND completed = ?", orgID, scope, key, false).
		Delete(&IdempotencyRecord{}).Error)
}
