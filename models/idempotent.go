package models

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"time"
)

// The protocol around one request sent with an Idempotency-Key (docs/decisions.md,
// "Idempotency-Key"): claim the key, wait while the first request with it is in
// flight, then run and keep the answer, or give the key back when the answer is
// worth retrying.
const (
	// idempotencyWait bounds how long a retry waits for the first request with its key.
	idempotencyWait = 15 * time.Second
	// idempotencyPoll is how often a waiting retry asks again.
	idempotencyPoll = 100 * time.Millisecond
	// statusClientClosedRequest is the status of a request its client closed
	// before the answer (nginx's 499, as the handlers log it).
	statusClientClosedRequest = 499
)

// IdempotentRequest names a request sent with an Idempotency-Key.
type IdempotentRequest struct {
	// OrganizationID is the caller's organization: keys are per organization.
	OrganizationID int64
	// Scope is the endpoint ("POST /api/v1/transactions"): keys are per endpoint.
	Scope string
	// Key is the Idempotency-Key header as sent.
	Key string
	// Fingerprint is the request's content: the same key with another
	// fingerprint is refused.
	Fingerprint []byte
	// Log receives the failures to keep or give back the key, which do not
	// change the answer; nil is the Store's logger.
	Log *slog.Logger
}

// StoredResponse is the answer kept for an Idempotency-Key and sent again to a retry.
type StoredResponse struct {
	StatusCode  int
	ContentType string
	// Headers are the response headers replayed with the body (Location, ETag).
	Headers map[string]string
	Body    []byte
}

// Idempotent runs the request req names once per key: the first request with
// the key runs run and its answer is kept (sealed) for the key's lifetime; a
// retry with the same key and fingerprint gets that answer again with
// replayed true, after waiting (up to idempotencyWait) while the first is
// still running; the same key with another fingerprint is a 422
// *ValidationError, and a key still in flight after the wait is
// ErrIdempotencyInProgress. An answer worth retrying (a server failure, a
// conflict, a rate limit, a closed client) or an error from run gives the key
// back, so that a retry runs again.
func (s *Store) Idempotent(ctx context.Context, req IdempotentRequest, run func(ctx context.Context) (StoredResponse, error)) (resp StoredResponse, replayed bool, err error) {
	if len(req.Key) > MaxIdempotencyKeyLength || !printableASCII(req.Key) {
		return StoredResponse{}, false, Invalid("header:Idempotency-Key", "invalid_idempotency_key", "problem.idempotency.key")
	}
	sum := sha256.Sum256(append([]byte(req.Scope+"\n"), req.Fingerprint...))
	hash := hex.EncodeToString(sum[:])
	claim, err := s.claimWaiting(ctx, req, hash)
	if err != nil {
		return StoredResponse{}, false, err
	}
	if r := claim.Replay; r != nil {
		var headers map[string]string
		_ = json.Unmarshal(r.Headers, &headers)
		return StoredResponse{StatusCode: r.StatusCode, ContentType: r.ContentType, Headers: headers, Body: r.Body}, true, nil
	}
	resp, err = run(ctx)
	log := req.Log
	if log == nil {
		log = s.log
	}
	// Not ctx: a request its client closed gives its key back too, and an
	// answer is kept even when its client has gone since.
	bg := context.WithoutCancel(ctx)
	if err != nil || worthRetrying(resp.StatusCode) {
		if rerr := s.ReleaseIdempotencyKey(bg, req.OrganizationID, req.Scope, req.Key); rerr != nil {
			log.WarnContext(ctx, "release idempotency key", "error", rerr)
		}
		return resp, false, err
	}
	headers, _ := json.Marshal(resp.Headers)
	if err := s.CompleteIdempotencyKey(bg, req.OrganizationID, req.Scope, req.Key, resp.StatusCode, resp.ContentType, headers, resp.Body); err != nil {
		log.ErrorContext(ctx, "store idempotent response", "error", err)
	}
	return resp, false, nil
}

// claimWaiting claims the key, asking again while the first request with it
// is in flight, until idempotencyWait has passed or ctx ends.
func (s *Store) claimWaiting(ctx context.Context, req IdempotentRequest, hash string) (ClaimResult, error) {
	deadline := time.Now().Add(idempotencyWait)
	claim, err := s.ClaimIdempotencyKey(ctx, req.OrganizationID, req.Scope, req.Key, hash)
	for errors.Is(err, ErrIdempotencyInProgress) && time.Now().Before(deadline) {
		select {
		case <-ctx.Done():
			return ClaimResult{}, ctx.Err()
		case <-time.After(idempotencyPoll):
		}
		claim, err = s.ClaimIdempotencyKey(ctx, req.OrganizationID, req.Scope, req.Key, hash)
	}
	return claim, err
}

// worthRetrying tells whether an answer gives its key back instead of being
// kept: a retry may well get another answer.
func worthRetrying(status int) bool {
	return status >= http.StatusInternalServerError || status == http.StatusConflict ||
		status == http.StatusTooManyRequests || status == statusClientClosedRequest
}

// printableASCII tells whether s is non-empty and all printable ASCII.
func printableASCII(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}
