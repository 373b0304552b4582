package handlers

import (
	"bytes"
	"context"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/models"
)

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
// secret. The protocol (claim, wait, keep or give back) is
// models.Store.Idempotent's; this binds the header, runs the handler into a
// captured answer and writes a replay. Every replay is sent with
// Cache-Control: no-store.
func (h *apiHandler) withIdempotencyReplay(c *gin.Context, fingerprint []byte, secrets replaySecrets, run func() error) error {
	key := c.GetHeader("Idempotency-Key")
	if key == "" {
		return run()
	}
	req := models.IdempotentRequest{
		OrganizationID: principalFrom(c).Organization.ID,
		Scope:          c.Request.Method + " " + c.FullPath(),
		Key:            key,
		Fingerprint:    fingerprint,
		Log:            loggerFrom(c),
	}
	answer, replayed, err := h.idempotency.Idempotent(c.Request.Context(), req, func(context.Context) (models.StoredResponse, error) {
		return captureAnswer(c, secrets.strip, run), nil
	})
	if err != nil || !replayed {
		return err
	}
	body := answer.Body
	if secrets.fill != nil {
		if body, err = secrets.fill(c, answer.StatusCode, body); err != nil {
			return err
		}
	}
	for k, v := range answer.Headers {
		c.Header(k, v)
	}
	c.Header("Idempotent-Replayed", "true")
	c.Header("Cache-Control", "no-store")
	c.Data(answer.StatusCode, answer.ContentType, body)
	return nil
}

// captureAnswer runs the handler, writing its answer (a problem when it
// fails) to the client and copying it into the answer to keep: the status,
// the content type, the replayed headers and the body, without its secret
// (strip, when not nil).
func captureAnswer(c *gin.Context, strip func(status int, body []byte) []byte, run func() error) models.StoredResponse {
	rec := &captureWriter{ResponseWriter: c.Writer}
	c.Writer = rec
	if err := run(); err != nil {
		respondError(c, err)
	}
	c.Writer = rec.ResponseWriter
	answer := models.StoredResponse{
		StatusCode:  rec.Status(),
		ContentType: rec.Header().Get("Content-Type"),
		Headers:     map[string]string{},
		Body:        rec.body.Bytes(),
	}
	for _, name := range replayedHeaders() {
		if v := rec.Header().Get(name); v != "" {
			answer.Headers[name] = v
		}
	}
	if strip != nil {
		answer.Body = strip(answer.StatusCode, answer.Body)
	}
	return answer
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
