package handlers

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/models"
)

// idempotencyWait bounds how long a retry waits for the first request with its key.
const idempotencyWait = 15 * time.Second

// replayedHeaders are the response headers stored with an idempotent response.
func replayedHeaders() []string { return []string{"Location", "ETag"} }

// withIdempotency runs a POST handler under the request's Idempotency-Key
// (docs/decisions.md, "Idempotency-Key"): the first request runs and its response is stored; a retry
// with the same key and fingerprint gets that response again; the same key
// with another fingerprint is a 422. Without the header, run just runs.
func (h *apiHandler) withIdempotency(c *gin.Context, fingerprint []byte, run func() error) error {
	return h.withIdempotencyReplay(c, fingerprint, replaySecrets{}, run)
}

// replaySecrets keeps a secret out of a stored response: strip removes it
// from the body before it is stored (sealed, as every stored body is), and
// fill puts the current one back into a replay, or refuses the replay with
// an error when the thing it belongs to is gone. Either may be nil.
type replaySecrets struct {
	strip func(status int, body []byte) []byte
	fill  func(c *gin.Context, status int, body []byte) ([]byte, error)
}

// withIdempotencyReplay is withIdempotency for responses that carry a
// secret. Every replay is sent with Cache-Control: no-store.
func (h *apiHandler) withIdempotencyReplay(c *gin.Context, fingerprint []byte, secrets replaySecrets, run func() error) error {
	key := c.GetHeader("Idempotency-Key")
	if key == "" {
		return run()
	}
	if len(key) > models.MaxIdempotencyKeyLength || !printableASCII(key) {
		return models.Invalid("header:Idempotency-Key", "invalid_idempotency_key", "An Idempotency-Key is 1 to 255 printable ASCII characters.")
	}
	ctx := c.Request.Context()
	org := principalFrom(c).Organization.ID
	scope := c.Request.Method + " " + c.FullPath()
	sum := sha256.Sum256(append([]byte(scope+"\n"), fingerprint...))
	hash := hex.EncodeToString(sum[:])

	deadline := time.Now().Add(idempotencyWait)
	claim, err := h.idempotency.ClaimIdempotencyKey(ctx, org, scope, key, hash)
	for errors.Is(err, models.ErrIdempotencyInProgress) && time.Now().Before(deadline) {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
		claim, err = h.idempotency.ClaimIdempotencyKey(ctx, org, scope, key, hash)
	}
	if errors.Is(err, models.ErrIdempotencyInProgress) {
		return errStatus(http.StatusConflict, "A request with this Idempotency-Key is still being processed; retry in a moment.")
	}
	if err != nil {
		return err
	}
	if r := claim.Replay; r != nil {
		body := r.Body
		if secrets.fill != nil {
			if body, err = secrets.fill(c, r.StatusCode, body); err != nil {
				return err
			}
		}
		var headers map[string]string
		_ = json.Unmarshal(r.Headers, &headers)
		for k, v := range headers {
			c.Header(k, v)
		}
		c.Header("Idempotent-Replayed", "true")
		c.Header("Cache-Control", "no-store")
		c.Data(r.StatusCode, r.ContentType, body)
		return nil
	}

	rec := &captureWriter{ResponseWriter: c.Writer}
	c.Writer = rec
	if err := run(); err != nil {
		respondError(c, err)
	}
	c.Writer = rec.ResponseWriter
	status := rec.Status()
	if status >= 500 || status == http.StatusConflict || status == http.StatusTooManyRequests || status == statusClientClosedRequest {
		// Not ctx: a request its client closed (499) releases its key too.
		if err := h.idempotency.ReleaseIdempotencyKey(context.WithoutCancel(ctx), org, scope, key); err != nil {
			loggerFrom(c).WarnContext(ctx, "release idempotency key", "error", err)
		}
		return nil
	}
	stored := map[string]string{}
	for _, name := range replayedHeaders() {
		if v := rec.Header().Get(name); v != "" {
			stored[name] = v
		}
	}
	hb, _ := json.Marshal(stored)
	body := rec.body.Bytes()
	if secrets.strip != nil {
		body = secrets.strip(status, body)
	}
	// Not ctx: the answer is stored even when its client has gone since.
	if err := h.idempotency.CompleteIdempotencyKey(context.WithoutCancel(ctx), org, scope, key, status, rec.Header().Get("Content-Type"), hb, body); err != nil {
		loggerFrom(c).ErrorContext(ctx, "store idempotent response", "error", err)
	}
	return nil
}

// captureWriter copies the response body while writing it.
type captureWriter struct {
	gin.ResponseWriter
	body bytes.Buffer
}

func (w *captureWriter) Write(b []byte) (int, error) {
	w.body.Write(b)
	return w.ResponseWriter.Write(b)
}

func (w *captureWriter) WriteString(s string) (int, error) {
	w.body.WriteString(s)
	return w.ResponseWriter.WriteString(s)
}

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
