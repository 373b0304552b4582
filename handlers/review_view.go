package handlers

import (
	"strings"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/review"
	"github.com/markuproom/markuproom/web/i18n"
)

// findingSentence is a finding's sentence as words: the catalog's
// review.finding.<code> with the names, titles and pages of t, the pages
// written as given (the room's page sets them apart: i18n.LeftToRight).
func findingSentence(t *models.Transaction, f review.Finding, pages i18n.Words) i18n.Words {
	return i18n.Msg(findingID(f.Code),
		"participant", participantName(t, f.Participant),
		"other", participantName(t, f.Other),
		"document", documentTitle(t, f.Document),
		"pages", pages,
		"count", len(f.Pages),
	)
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
func participantName(t *models.Transaction, id string) i18n.Words {
	if id == "" {
		return i18n.Plain("")
	}
	for i := range t.Participants {
		if p := &t.Participants[i]; p.ParticipantID == id {
			if name := strings.TrimSpace(p.FullName()); name != "" {
				return i18n.Plain(name)
			}
			return i18n.Plain(p.Email)
		}
	}
	return i18n.Msg("review.unknown_participant", "id", id)
}

// documentTitle is the title of the document at position i ("" for -1).
func documentTitle(t *models.Transaction, i int) string {
	if i < 0 || i >= len(t.Documents) {
		return ""
	}
	return t.Documents[i].Title
}
