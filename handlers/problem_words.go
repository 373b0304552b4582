package handlers

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/review"
	"github.com/markuproom/markuproom/web/i18n"
)

// Problems in the person's language (docs/i18n.md, "Problems and errors").
// The API answers in English (inEnglish), but the room and the console show
// a refusal's title and details to people: for a request in another
// language, respondError and the forms translate them here. The type, the
// status and every field error's code stay what they are; only the words
// change. The ids are literal (the catalog tests find each one in the
// source): a problem type's title by its slug, a field error's detail by
// its code, and the fixed sentences of problemFromError and errStatus by
// their English words.

// problemTitleIDs are the titles of problemTypes, by slug.
var problemTitleIDs = map[string]string{
	"invalid-request":        "problem.title.invalid_request",
	"unauthorized":           "problem.title.unauthorized",
	"forbidden":              "problem.title.forbidden",
	"not-found":              "problem.title.not_found",
	"method-not-allowed":     "problem.title.method_not_allowed",
	"conflict":               "problem.title.conflict",
	"gone":                   "problem.title.gone",
	"precondition-failed":    "problem.title.precondition_failed",
	"payload-too-large":      "problem.title.payload_too_large",
	"unsupported-media-type": "problem.title.unsupported_media_type",
	"unprocessable":          "problem.title.unprocessable",
	"too-many-requests":      "problem.title.too_many_requests",
	"internal":               "problem.title.internal",
	"unavailable":            "problem.title.unavailable",
}

// speaksEnglishL tells whether l speaks the language the API answers in.
func speaksEnglishL(l *i18n.Localizer) bool {
	return l.Language().Tag == i18n.Fallback().Tag
}

// say writes m in l's language: the catalog's text with m's arguments
// (docs/words.md). A count stays a number, for the plural form; every
// other whole number is written in digits, as the request wrote it (a
// page, a limit, a position); a models.Quoted value goes between quotes
// with Go's escapes; a Message inside m is written first, and Sentences
// one after another.
func say(l *i18n.Localizer, m models.Message) string {
	if m.IsZero() {
		return ""
	}
	args := make([]any, len(m.Args))
	for i, a := range m.Args {
		if i%2 == 0 {
			args[i] = a
			continue
		}
		name, _ := m.Args[i-1].(string)
		args[i] = sayArg(l, name, a)
	}
	return l.T(m.ID, args...)
}

// sayArg is one argument of a message, ready for the catalog's text.
func sayArg(l *i18n.Localizer, name string, v any) any {
	switch v := v.(type) {
	case int:
		if name == "count" {
			return v
		}
		return strconv.Itoa(v)
	case int64:
		if name == "count" {
			return int(v)
		}
		return strconv.FormatInt(v, 10)
	case models.Quoted:
		return strconv.Quote(string(v))
	case models.Message:
		return say(l, v)
	case models.Sentences:
		words := make([]string, len(v))
		for i, m := range v {
			words[i] = say(l, m)
		}
		return strings.Join(words, " ")
	case string:
		return v
	}
	return fmt.Sprint(v)
}

// sayFields is a copy of fields with each detail written in l's language
// (the error's own list is left as it is: it may be shared).
func sayFields(l *i18n.Localizer, fields []models.FieldError) []models.FieldError {
	out := make([]models.FieldError, len(fields))
	for i, f := range fields {
		out[i] = f
		out[i].Detail = say(l, f.Message)
	}
	return out
}

// findingWords is a finding's sentence in l's language: the API's and
// the problem writer's (the room's view words findingSentence itself).
func findingWords(l *i18n.Localizer, t *models.Transaction, f review.Finding) string {
	return l.Say(findingSentence(t, f, i18n.Ranges(f.Pages)))
}

// messageWords is a model's Message as words a view writes: the problem
// writer's say in the view's language (a room's failed validation).
type messageWords models.Message

// In writes the message in l's language.
func (m messageWords) In(l *i18n.Localizer) string { return say(l, models.Message(m)) }

// wordValidation writes a validation error's detail and its field
// errors' in ctx's language, in place, for a form that shows them beside
// its fields.
func wordValidation(ctx context.Context, ve *models.ValidationError) {
	if ve == nil {
		return
	}
	l := i18n.From(ctx)
	ve.Detail = say(l, ve.Message)
	copy(ve.Errors, sayFields(l, ve.Errors))
}

// WordValidation writes a validation error's detail and its field
// errors' in English, in place: the operator's command line prints them.
func WordValidation(ve *models.ValidationError) {
	wordValidation(context.Background(), ve)
}

// problemFor is err's problem in the request's language.
func problemFor(ctx context.Context, err error) Problem {
	return problemIn(i18n.From(ctx), err)
}

// message is the refusal's words as data: its catalog id and arguments.
func (e *rateLimitedError) message() models.Message {
	n := retryAfterSeconds(e.decision)
	switch {
	case e.upload:
		return models.Msg("error.rate.uploads", "limit", e.decision.Limit, "count", n)
	case e.scope == scopeAPI:
		return models.Msg("error.rate.api", "limit", e.decision.Limit, "count", n)
	case e.scope == scopeRoom:
		return models.Msg("error.rate.room", "count", n)
	default:
		return models.Msg("error.rate.address", "count", n)
	}
}

// fieldErrors indexes a validation error's messages, in ctx's language, by
// the room's participant form's field names: the last part of each pointer ("#/email", and "#/participants/2/personalPassword"
// from the checks of the whole transaction, both name a field of the form).
func fieldErrors(ctx context.Context, ve *models.ValidationError) map[string]string {
	wordValidation(ctx, ve)
	out := map[string]string{}
	for _, f := range ve.Errors {
		name := f.Pointer
		if i := strings.LastIndexByte(name, '/'); i >= 0 {
			name = name[i+1:]
		}
		if name == "" || name == "#" {
			name = "form"
		}
		detail := f.Detail
		if f.Code == "password_required" { // the form asks for it in its own words
			detail = say(i18n.From(ctx), models.Msg("problem.room.password_required"))
		}
		if _, seen := out[name]; !seen {
			out[name] = detail
		}
	}
	return out
}
