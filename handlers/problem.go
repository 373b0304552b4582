package handlers

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/handlers/logsafe"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/review"
	"github.com/markuproom/markuproom/web/i18n"
)

// problemContentType is the media type of RFC 9457 problem details.
const problemContentType = "application/problem+json"

// Problem is an RFC 9457 problem details object with Markup Room's extensions.
type Problem struct {
	Type      string              `json:"type"`
	Title     string              `json:"title"`
	Status    int                 `json:"status"`
	Detail    string              `json:"detail,omitempty"`
	Instance  string              `json:"instance,omitempty"`
	RequestID string              `json:"requestId"`
	Errors    []models.FieldError `json:"errors"`
	// Findings lists the pre-send check's blocking findings of a refused
	// e-signature session (code review_blocked, docs/review.md), each as
	// the review route answers it.
	Findings []findingJSON `json:"findings,omitempty"`
	// CurrentTags are the tags of a refused room edit as they are now
	// (code tag_changed: the edit was made against an older version).
	CurrentTags []currentTagJSON `json:"currentTags,omitempty"`
}

// problemType describes one kind of problem; Slug names its documentation page.
type problemType struct {
	Slug   string
	Title  string
	Status int
}

// problemTypes lists every problem the API answers with, for the mapper and the docs page.
func problemTypes() []problemType {
	return []problemType{
		{"invalid-request", "The request is not valid", http.StatusBadRequest},
		{"unauthorized", "Authentication failed", http.StatusUnauthorized},
		{"forbidden", "The action is not allowed", http.StatusForbidden},
		{"not-found", "The resource was not found", http.StatusNotFound},
		{"method-not-allowed", "The method is not allowed", http.StatusMethodNotAllowed},
		{"conflict", "The request conflicts with the current state", http.StatusConflict},
		{"gone", "The resource is gone", http.StatusGone},
		{"precondition-failed", "The resource has changed", http.StatusPreconditionFailed},
		{"payload-too-large", "The request body is too large", http.StatusRequestEntityTooLarge},
		{"unsupported-media-type", "The content type is not supported", http.StatusUnsupportedMediaType},
		{"unprocessable", "The request cannot be processed", http.StatusUnprocessableEntity},
		{"too-many-requests", "Too many requests", http.StatusTooManyRequests},
		{"internal", "Internal server error", http.StatusInternalServerError},
		{"unavailable", "The service is unavailable", http.StatusServiceUnavailable},
	}
}

func problemTypeFor(status int) problemType {
	for _, t := range problemTypes() {
		if t.Status == status {
			return t
		}
	}
	return problemType{Slug: "internal", Title: http.StatusText(status), Status: status}
}

// problemFromError decides the status, title, detail and field errors of
// err, in English: the API's and MCP's answer (programs switch on codes).
// Errors it does not know become a 500 that reveals nothing internal.
func problemFromError(err error) Problem {
	return problemIn(i18n.English(), err)
}

// problemIn is err's problem with its words in l's language: the problem
// writer, the one place besides the views that makes words (docs/words.md).
// Each error carries a catalog id and its arguments (models.Message); the
// type, the status and every field error's code are the same in every
// language.
func problemIn(l *i18n.Localizer, err error) Problem {
	var (
		status int
		msg    models.Message
		fields []models.FieldError
		ve     *models.ValidationError
		auth   *models.AuthError
		off    *models.ForbiddenError
		tooBig *http.MaxBytesError
		rate   *rateLimitedError
		rb     *models.ReviewBlockedError
		tc     *models.TagChangedError
	)
	switch {
	case errors.As(err, &ve):
		status = map[models.Kind]int{
			models.KindInvalid:          http.StatusBadRequest,
			models.KindUnprocessable:    http.StatusUnprocessableEntity,
			models.KindTooLarge:         http.StatusRequestEntityTooLarge,
			models.KindUnsupportedMedia: http.StatusUnsupportedMediaType,
			models.KindNotFound:         http.StatusNotFound,
		}[ve.Kind]
		if status == 0 {
			status = http.StatusBadRequest
		}
		msg, fields = ve.Message, ve.Errors
	case errors.As(err, &rb):
		status, msg = http.StatusUnprocessableEntity, models.Msg("problem.summary.review_blocked")
	case errors.As(err, &tc):
		status, msg = http.StatusConflict, models.Msg("error.tag_changed")
		for _, c := range tc.Conflicts {
			fields = append(fields, models.FieldError{Pointer: c.Pointer, Code: "tag_changed", Message: msg})
		}
	case errors.As(err, &rate):
		status, msg = http.StatusTooManyRequests, rate.message()
		fields = []models.FieldError{{Pointer: "", Code: "rate_limited", Message: msg}}
	case errors.As(err, &tooBig):
		status, msg = http.StatusRequestEntityTooLarge, models.Msg("error.body_too_large")
	case errors.As(err, &auth):
		status, msg = http.StatusUnauthorized, auth.Message
	case errors.Is(err, models.ErrUnauthorized):
		status, msg = http.StatusUnauthorized, models.Msg("error.authentication_required")
	case errors.Is(err, models.ErrNotFound):
		status, msg = http.StatusNotFound, models.Msg("error.no_such_resource")
	case errors.As(err, &off):
		status, msg = http.StatusForbidden, models.Msg("error.room_action_off", "action", string(off.Action))
	case errors.Is(err, models.ErrForbidden):
		status, msg = http.StatusForbidden, models.Msg("problem.detail.forbidden")
	case errors.Is(err, models.ErrPreconditionFailed):
		status, msg = http.StatusPreconditionFailed, models.Msg("error.resource_changed")
	case errors.Is(err, models.ErrRoomCompleted):
		status, msg = http.StatusConflict, models.Msg("error.room_completed")
	case errors.Is(err, models.ErrIdempotencyInProgress):
		status, msg = http.StatusConflict, models.Msg("error.idempotency_in_progress")
	case errors.Is(err, models.ErrRoomExpired):
		status, msg = http.StatusGone, models.Msg("error.room_expired")
	case errors.Is(err, models.ErrConflict):
		status, msg = http.StatusConflict, models.Msg("error.concurrent_change")
	case errors.Is(err, models.ErrUnavailable):
		status, msg = http.StatusServiceUnavailable, models.Msg("error.database_unavailable")
	case errors.Is(err, models.ErrTooManyStreams):
		status, msg = http.StatusTooManyRequests, models.Msg("error.too_many_streams")
		fields = []models.FieldError{{Pointer: "", Code: "too_many_streams", Message: msg}}
	case errors.Is(err, models.ErrPDFBusy):
		status, msg = http.StatusServiceUnavailable, models.Msg("error.pdf_busy")
		fields = []models.FieldError{{Pointer: "", Code: "pdf_busy", Message: msg}}
	case errors.Is(err, context.DeadlineExceeded):
		status, msg = http.StatusServiceUnavailable, models.Msg("error.timeout")
	default:
		status = http.StatusInternalServerError
	}
	var se *statusError
	if errors.As(err, &se) {
		status, msg = se.status, se.msg
	}
	t := problemTypeFor(status)
	p := Problem{Type: "/problems/" + t.Slug, Title: t.Title, Status: status, Errors: sayFields(l, fields)}
	if !speaksEnglishL(l) {
		if id, ok := problemTitleIDs[t.Slug]; ok {
			p.Title = l.T(id)
		}
	}
	p.Detail = say(l, msg)
	if rb != nil && status == http.StatusUnprocessableEntity {
		p.Errors, p.Findings = reviewBlocked(l, rb.Review)
	}
	if tc != nil && status == http.StatusConflict {
		p.CurrentTags = currentTags(tc)
	}
	return p
}

// reviewBlocked words a refused session's blocking findings: one field
// error of code review_blocked each (pointing at its finding), and the
// findings as the review route answers them.
func reviewBlocked(l *i18n.Localizer, r *models.TransactionReview) ([]models.FieldError, []findingJSON) {
	var (
		errs     []models.FieldError
		findings []findingJSON
	)
	for _, f := range r.Findings {
		if f.Severity != review.Blocking {
			continue
		}
		words := findingWords(l, r.Transaction, f)
		errs = append(errs, models.FieldError{Pointer: "#/findings/" + strconv.Itoa(len(findings)), Code: "review_blocked", Detail: words})
		findings = append(findings, findingJSON{Finding: f, Detail: words})
	}
	return errs, findings
}

// statusError is a handler-level error with an explicit status (e.g. 404
// for an unknown route) and its message.
type statusError struct {
	status int
	msg    models.Message
}

func (e *statusError) Error() string { return e.msg.String() }

// errStatus builds a statusError: status, and a catalog id with its
// arguments (the id written whole, so the catalog tests find it).
func errStatus(status int, id string, args ...any) error {
	return &statusError{status: status, msg: models.Msg(id, args...)}
}

// statusClientClosedRequest is the status logged (access log, metrics) for a
// request its client abandoned before the answer was ready (nginx's 499,
// "client closed request"): the client's doing, not a server failure.
const statusClientClosedRequest = 499

// clientClosed tells whether err ends a request that its client closed: the
// request's context was cancelled and err would otherwise be a server
// failure (a 5xx: the work it cut short failed with the cancellation, or
// with whatever the database or PDF reader made of it). A 4xx decided
// before the client left keeps its status.
func clientClosed(c *gin.Context, err error) bool {
	if !errors.Is(c.Request.Context().Err(), context.Canceled) {
		return false
	}
	return errors.Is(err, context.Canceled) || problemFromError(err).Status >= http.StatusInternalServerError
}

// writeClientClosed ends a request its client closed: status 499 for the
// access log and the metrics, no body (nobody reads it), logged at info.
func writeClientClosed(c *gin.Context, err error) {
	loggerFrom(c).InfoContext(c.Request.Context(), "client closed the request before the answer", "error", err.Error(), "status", statusClientClosedRequest)
	if !c.Writer.Written() {
		c.Status(statusClientClosedRequest)
		c.Writer.WriteHeaderNow()
	}
	c.Abort()
}

// statusLogLevel is the level a response's status is logged at: info below
// 500 (a 499, the client closed the request, included), error for a server
// failure, except a 503 (no PDF slot free), which is load shed on purpose
// and tells the caller when to come back: a warning.
func statusLogLevel(status int) slog.Level {
	switch {
	case status == http.StatusServiceUnavailable:
		return slog.LevelWarn
	case status >= http.StatusInternalServerError:
		return slog.LevelError
	}
	return slog.LevelInfo
}

// logServerFailure logs a 5xx answer with its error, at statusLogLevel.
func logServerFailure(c *gin.Context, err error, status int) {
	if status < http.StatusInternalServerError {
		return
	}
	loggerFrom(c).Log(c.Request.Context(), statusLogLevel(status), "request failed", "error", err.Error(), "status", status)
}

// writeProblem writes err as a problem details response and aborts the chain.
func writeProblem(c *gin.Context, err error) {
	p := problemFor(c.Request.Context(), err)
	p.Instance = logsafe.URL(c.Request.URL.Path, "") // a room link is a capability: never echoed
	p.RequestID = requestIDFrom(c)
	logServerFailure(c, err, p.Status)
	if p.Status == http.StatusUnauthorized {
		c.Header("WWW-Authenticate", wwwAuthenticate(err))
	}
	setRetryAfter(c, err)
	body, mErr := json.Marshal(p)
	if mErr != nil {
		body = []byte(`{"type":"/problems/internal","title":"Internal server error","status":500,"errors":[]}`)
	}
	c.Header("Cache-Control", "no-store")
	c.Data(p.Status, problemContentType, body)
	c.Abort()
}

// wwwAuthenticate builds the RFC 6750 challenge for a refused bearer token.
func wwwAuthenticate(err error) string {
	var auth *models.AuthError
	if errors.As(err, &auth) && auth.InvalidToken {
		return `Bearer realm="markuproom", error="invalid_token", error_description="` + sanitizeHeaderValue(say(i18n.English(), auth.Message)) + `"`
	}
	return `Bearer realm="markuproom"`
}

func sanitizeHeaderValue(s string) string {
	out := make([]rune, 0, len(s))
	for _, r := range s {
		if r >= 0x20 && r < 0x7f && r != '"' && r != '\\' {
			out = append(out, r)
		}
	}
	return string(out)
}
