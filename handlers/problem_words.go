package handlers

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/markuproom/markuproom/models"
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

// problemDetailIDs are a problem type's general explanation, by slug: the
// detail of a translated problem whose own detail has no message (the
// summary of a list of field errors, or a sentence with the request's
// specifics in it).
var problemDetailIDs = map[string]string{
	"invalid-request":        "problem.detail.invalid_request",
	"unauthorized":           "problem.detail.unauthorized",
	"forbidden":              "problem.detail.forbidden",
	"not-found":              "problem.detail.not_found",
	"method-not-allowed":     "problem.detail.method_not_allowed",
	"conflict":               "problem.detail.conflict",
	"gone":                   "problem.detail.gone",
	"precondition-failed":    "problem.detail.precondition_failed",
	"payload-too-large":      "problem.detail.payload_too_large",
	"unsupported-media-type": "problem.detail.unsupported_media_type",
	"unprocessable":          "problem.detail.unprocessable",
	"too-many-requests":      "problem.detail.too_many_requests",
	"internal":               "problem.detail.internal",
	"unavailable":            "problem.detail.unavailable",
}

// errorSentenceIDs translate the fixed English details of problemFromError
// and of the errStatus refusals people meet (routes, sessions, forms), by
// their exact English words.
var errorSentenceIDs = map[string]string{
	"Authentication is required.":      "error.authentication_required",
	"No resource with this id exists.": "error.no_such_resource",
	"The resource changed since the ETag in If-Match was read; read it again and retry.":                                   "error.resource_changed",
	"This Markup Room is completed; nothing can be changed any more.":                                                      "error.room_completed",
	"A request with this Idempotency-Key is still being processed; retry in a moment.":                                     "error.idempotency_in_progress",
	"This Markup Room link has expired. Ask the sender for a new one.":                                                     "error.room_expired",
	"The request conflicts with a concurrent change; retry it.":                                                            "error.concurrent_change",
	"The service cannot reach its database at the moment; retry in a few seconds.":                                         "error.database_unavailable",
	"The request took too long; retry it.":                                                                                 "error.timeout",
	"The request body is larger than the limit of this endpoint.":                                                          "error.body_too_large",
	"There is nothing at this address.":                                                                                    "error.nothing_here",
	"This method is not allowed at this address.":                                                                          "error.method_not_allowed",
	"This Markup Room link is not valid. Check that you copied the whole address, or ask the sender for a new link.":       "error.room_link_invalid",
	"The form has expired or did not come from this page. Reload the page and try again.":                                  "error.form_expired",
	"This browser has not opened this Markup Room. Open the link you received (it signs this browser in), then try again.": "error.room_not_opened",
	"This account may not use the admin console.":                                                                          "error.console_not_allowed",
	"Sign in to the admin console first.":                                                                                  "error.console_sign_in",
	"This template is archived; its versions can no longer change.":                                                        "error.template_archived",
	"This Markup Room is already completed or expired.":                                                                    "error.room_closed",
	"You cannot disable your own account; ask another admin.":                                                              "error.own_account",
	"There is no such problem type.":                                                                                       "error.no_problem_type",
	"Send the form as multipart/form-data.":                                                                                "error.form_not_multipart",
	"The form has no multipart boundary.":                                                                                  "error.form_not_multipart",
	"The form has too many fields.":                                                                                        "error.form_too_many_fields",
	"Something went wrong on our side. Please try again in a moment.":                                                      "error.page.something_wrong",
}

// problemCodeIDs are a field error's detail, by its code: one sentence
// that is right whatever the English detail's specifics were.
var problemCodeIDs = map[string]string{
	"anchor_not_found":         "problem.code.anchor_not_found",
	"anchor_search_too_large":  "problem.code.anchor_search_too_large",
	"anchor_tag_off_page":      "problem.code.anchor_tag_off_page",
	"anchor_text_unreadable":   "problem.code.anchor_text_unreadable",
	"batch_not_supported":      "problem.code.batch_not_supported",
	"bidi_control":             "problem.code.bidi_control",
	"checklist_unmet":          "problem.code.checklist_unmet",
	"conflicting_value":        "problem.code.conflicting_value",
	"damaged_pdf":              "problem.code.damaged_pdf",
	"document_changed":         "problem.code.document_changed",
	"document_mismatch":        "problem.code.document_mismatch",
	"duplicate":                "problem.code.duplicate",
	"duplicate_document":       "problem.code.duplicate_document",
	"duplicate_email":          "problem.code.duplicate_email",
	"duplicate_file":           "problem.code.duplicate_file",
	"duplicate_participant_id": "problem.code.duplicate_participant_id",
	"duplicate_role":           "problem.code.duplicate_role",
	"duplicate_tag":            "problem.code.duplicate_tag",
	"embed_origin_not_allowed": "problem.code.embed_origin_not_allowed",
	"empty":                    "problem.code.empty",
	"empty_batch":              "problem.code.empty_batch",
	"empty_file":               "problem.code.empty_file",
	"empty_range":              "problem.code.empty_range",
	"empty_request":            "problem.code.empty_request",
	"encrypted_pdf":            "problem.code.encrypted_pdf",
	"file_too_large":           "problem.code.file_too_large",
	"id_mismatch":              "problem.code.id_mismatch",
	"idempotency_key_reused":   "problem.code.idempotency_key_reused",
	"insecure_origin":          "problem.code.insecure_origin",
	"invalid_action":           "problem.code.invalid_action",
	"invalid_base64":           "problem.code.invalid_base64",
	"invalid_character":        "problem.code.invalid_character",
	"invalid_cursor":           "problem.code.invalid_cursor",
	"invalid_email":            "problem.code.invalid_email",
	"invalid_encoding":         "problem.code.invalid_encoding",
	"invalid_enum":             "problem.code.invalid_enum",
	"invalid_form":             "problem.code.invalid_form",
	"invalid_id":               "problem.code.invalid_id",
	"invalid_idempotency_key":  "problem.code.invalid_idempotency_key",
	"invalid_json":             "problem.code.invalid_json",
	"invalid_location":         "problem.code.invalid_location",
	"invalid_origin":           "problem.code.invalid_origin",
	"invalid_phone":            "problem.code.invalid_phone",
	"invalid_position":         "problem.code.invalid_position",
	"invalid_query":            "problem.code.invalid_query",
	"invalid_time":             "problem.code.invalid_time",
	"invalid_type":             "problem.code.invalid_type",
	"invalid_url":              "problem.code.invalid_url",
	"invalid_value":            "problem.code.invalid_value",
	"invalid_xfdf":             "problem.code.invalid_xfdf",
	"last_page":                "problem.code.last_page",
	"limit_reached":            "problem.code.limit_reached",
	"malformed_multipart":      "problem.code.malformed_multipart",
	"missing_boundary":         "problem.code.missing_boundary",
	"no_documents":             "problem.code.no_documents",
	"no_signing_order":         "problem.code.no_signing_order",
	"no_tags":                  "problem.code.no_tags",
	"not_integer":              "problem.code.not_integer",
	"not_pdf":                  "problem.code.not_pdf",
	"out_of_range":             "problem.code.out_of_range",
	"outside_page":             "problem.code.outside_page",
	"page_count_mismatch":      "problem.code.page_count_mismatch",
	"page_out_of_range":        "problem.code.page_out_of_range",
	"participants_required":    "problem.code.participants_required",
	"password_required":        "problem.code.password_required",
	"pdf_busy":                 "problem.code.pdf_busy",
	"pdf_expands_too_much":     "problem.code.pdf_expands_too_much",
	"pdf_too_complex":          "problem.code.pdf_too_complex",
	"phone_required":           "problem.code.phone_required",
	"rate_limited":             "problem.code.rate_limited",
	"read_only":                "problem.code.read_only",
	"required":                 "problem.code.required",
	"room_changed":             "problem.code.room_changed",
	"template_mismatch":        "problem.code.template_mismatch",
	"too_large":                "problem.code.too_large",
	"too_long":                 "problem.code.too_long",
	"too_many":                 "problem.code.too_many",
	"too_many_changes":         "problem.code.too_many_changes",
	"too_many_documents":       "problem.code.too_many_documents",
	"too_many_pages":           "problem.code.too_many_pages",
	"too_many_roles":           "problem.code.too_many_roles",
	"too_many_rows":            "problem.code.too_many_rows",
	"too_many_tags":            "problem.code.too_many_tags",
	"too_many_templates":       "problem.code.too_many_templates",
	"too_short":                "problem.code.too_short",
	"unassigned_role":          "problem.code.unassigned_role",
	"unknown_document":         "problem.code.unknown_document",
	"unknown_field":            "problem.code.unknown_field",
	"unknown_organization":     "problem.code.unknown_organization",
	"unknown_role":             "problem.code.unknown_role",
	"unknown_signer":           "problem.code.unknown_signer",
	"unknown_suggestion":       "problem.code.unknown_suggestion",
	"unknown_tag":              "problem.code.unknown_tag",
	"unknown_template":         "problem.code.unknown_template",
	"unknown_transaction":      "problem.code.unknown_transaction",
	"unsupported_media_type":   "problem.code.unsupported_media_type",
}

// speaksEnglish tells whether ctx's language is the one the details are
// written in: nothing to translate.
func speaksEnglish(ctx context.Context) bool {
	return i18n.From(ctx).Language().Tag == i18n.Fallback().Tag
}

// localizeFieldErrors translates each field error's detail, in place, by
// its code (a code without a message keeps a general sentence of its
// problem: the coverage test keeps that from happening).
func localizeFieldErrors(ctx context.Context, fields []models.FieldError) {
	if speaksEnglish(ctx) {
		return
	}
	l := i18n.From(ctx)
	for i := range fields {
		fields[i].Detail = l.T(fieldErrorID(fields[i]))
	}
}

// fieldErrorID is the message of one field error.
func fieldErrorID(f models.FieldError) string {
	if f.Code == "password_required" && strings.HasSuffix(f.Pointer, "/personalPassword") {
		return "problem.room.password_required" // a participant's, not a PDF's
	}
	if id, ok := problemCodeIDs[f.Code]; ok {
		return id
	}
	return "problem.code.invalid_value"
}

// localizeProblem translates a problem's title, detail and field errors in
// place; type, status and codes stay.
func localizeProblem(ctx context.Context, p *Problem) {
	if speaksEnglish(ctx) {
		return
	}
	l := i18n.From(ctx)
	slug := strings.TrimPrefix(p.Type, "/problems/")
	if id, ok := problemTitleIDs[slug]; ok {
		p.Title = l.T(id)
	}
	if p.Detail != "" {
		p.Detail = l.T(detailID(p.Detail, slug, p.Errors))
	}
	localizeFieldErrors(ctx, p.Errors)
}

// detailID is the message of a problem's detail: its own sentence's, or
// its one field error's (a single-problem error repeats it), or its type's.
func detailID(detail, slug string, fields []models.FieldError) string {
	if id, ok := errorSentenceIDs[detail]; ok {
		return id
	}
	if len(fields) == 1 && fields[0].Detail == detail {
		return fieldErrorID(fields[0])
	}
	if id, ok := problemDetailIDs[slug]; ok {
		return id
	}
	return "problem.detail.internal"
}

// localizeValidation translates a validation error's words in place, for
// a form that shows them beside its fields.
func localizeValidation(ctx context.Context, ve *models.ValidationError) {
	if speaksEnglish(ctx) || ve == nil {
		return
	}
	slug := problemTypeFor(problemFromError(ve).Status).Slug
	if ve.Detail != "" {
		ve.Detail = i18n.T(ctx, detailID(ve.Detail, slug, ve.Errors))
	}
	localizeFieldErrors(ctx, ve.Errors)
}

// problemFor is err's problem in the request's language: a room action
// its configuration turns off says so, a rate limit's wait is told with its
// seconds.
func problemFor(ctx context.Context, err error) Problem {
	p := problemFromError(err)
	if speaksEnglish(ctx) {
		return p
	}
	localizeProblem(ctx, &p)
	var off *models.ForbiddenError
	if errors.As(err, &off) && p.Status == http.StatusForbidden {
		p.Detail = i18n.T(ctx, "error.room_action_off")
	}
	var rate *rateLimitedError
	if errors.As(err, &rate) && p.Status == http.StatusTooManyRequests {
		p.Detail = rate.localizedDetail(i18n.From(ctx))
		for i := range p.Errors {
			p.Errors[i].Detail = p.Detail
		}
	}
	return p
}

// localizedDetail is detail in l's language.
func (e *rateLimitedError) localizedDetail(l *i18n.Localizer) string {
	n := retryAfterSeconds(e.decision)
	switch {
	case e.upload:
		return l.T("error.rate.uploads", "limit", e.decision.Limit, "count", n)
	case e.scope == scopeRoom:
		return l.T("error.rate.room", "count", n)
	default:
		return l.T("error.rate.address", "count", n)
	}
}
