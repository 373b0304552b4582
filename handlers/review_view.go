package handlers

import (
	"strings"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/review"
	"github.com/markuproom/markuproom/web/i18n"
)

// findingWords is a finding's sentence in l's language, made from the
// catalog's review.finding.<code> with the names, titles and pages of t.
func findingWords(l *i18n.Localizer, t *models.Transaction, f review.Finding) string {
	return findingSentence(l, t, f, pageRanges(l, f.Pages))
}

// findingSentence is findingWords with the pages written as given (the
// room's page sets them apart: leftToRight).
func findingSentence(l *i18n.Localizer, t *models.Transaction, f review.Finding, pages string) string {
	args := []any{
		"participant", participantName(l, t, f.Participant),
		"other", participantName(l, t, f.Other),
		"document", documentTitle(t, f.Document),
		"pages", pages,
		"count", len(f.Pages),
	}
	return l.T(findingID(f.Code), args...)
}

// findingID is the catalog id of a finding code's sentence (literal, so
// the catalog tests find each one).
func findingID(code string) string {
	switch code {
	case review.CodeNoDocuments:
		return "review.finding.no_documents"
	case review.CodeNoParticipants:
		return "review.finding.no_participants"
	case review.CodeNothingToSign:
		return "review.finding.participant_signs_nothing"
	case review.CodeTagWithoutSigner:
		return "review.finding.tag_without_signer"
	case review.CodeUnknownParticipant:
		return "review.finding.tag_unknown_participant"
	case review.CodeTagsOverlap:
		return "review.finding.tags_overlap"
	case review.CodeOutsidePage:
		return "review.finding.tag_outside_page"
	case review.CodeCoversText:
		return "review.finding.tag_covers_text"
	case review.CodeFillWithoutSigning:
		return "review.finding.fill_without_signing"
	case review.CodeNotaryWithoutSeal:
		return "review.finding.notary_without_seal"
	case review.CodeInitialsMissing:
		return "review.finding.initials_missing"
	case review.CodeDocumentUntagged:
		return "review.finding.document_untagged"
	case review.CodeSharedEmail:
		return "review.finding.participants_share_email"
	case review.CodeTagNeedsLook:
		return "review.finding.tag_needs_look"
	}
	return "review.finding." + code // a code added without words: the tests catch it
}

// participantName is the name of the participant with id, or the id
// itself for one the transaction does not have (a removed participant's
// tags still name it).
func participantName(l *i18n.Localizer, t *models.Transaction, id string) string {
	if id == "" {
		return ""
	}
	for i := range t.Participants {
		if p := &t.Participants[i]; p.ParticipantID == id {
			if name := strings.TrimSpace(p.FullName()); name != "" {
				return name
			}
			return p.Email
		}
	}
	return l.T("review.unknown_participant", "id", id)
}

// documentTitle is the title of the document at position i ("" for -1).
func documentTitle(t *models.Transaction, i int) string {
	if i < 0 || i >= len(t.Documents) {
		return ""
	}
	return t.Documents[i].Title
}

// leftToRight sets s apart as a left-to-right run (U+2066 … U+2069): in
// an Arabic sentence "3–5" stays "3–5" (unset, the en dash splits it into
// two numbers laid out right to left: "5–3"). For the room's words only,
// not the API's.
func leftToRight(s string) string { return "\u2066" + s + "\u2069" }

// pageRanges writes ascending page numbers as ranges: "1–3, 5".
func pageRanges(l *i18n.Localizer, pages []int) string {
	var b strings.Builder
	for i := 0; i < len(pages); {
		j := i
		for j+1 < len(pages) && pages[j+1] == pages[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		b.WriteString(l.Number(pages[i]))
		if j > i {
			b.WriteString("–")
			b.WriteString(l.Number(pages[j]))
		}
		i = j + 1
	}
	return b.String()
}
