package models

import (
	"github.com/markuproom/markuproom/models/pdf/detect"
)

// Advisory checklist item ids: warnings that do not block the session.
const (
	// CheckDocumentsTagged warns about a document with no tag.
	CheckDocumentsTagged = "documents-tagged"
	// CheckSuggestionsDecided warns about suggested fields neither accepted nor dismissed.
	CheckSuggestionsDecided = "suggestions-decided"
)

// checklistWarnings are the checklist's advisory items, present only when
// there is something to warn about: documents without a tag (a signer might
// never see them) and suggested fields still undecided (ws.Suggestions less
// those a tag covers, as the editor counts them). Neither blocks the
// session (ChecklistDone skips them).
func checklistWarnings(ws *RoomWorkspace) []ChecklistItem {
	var out []ChecklistItem
	t := ws.Transaction
	untagged := ChecklistItem{ID: CheckDocumentsTagged, Advisory: true, OK: true}
	for _, d := range t.Documents {
		if len(d.Tags) == 0 {
			untagged.OK = false
			untagged.Names = append(untagged.Names, d.Title)
		}
	}
	if !untagged.OK {
		out = append(out, untagged)
	}
	if n := UndecidedSuggestions(ws); n > 0 {
		out = append(out, ChecklistItem{ID: CheckSuggestionsDecided, Advisory: true, Count: n})
	}
	return out
}

// UndecidedSuggestions counts the suggested fields a room offers (not
// dismissed) that no tag on their page covers: those the editor still lists.
func UndecidedSuggestions(ws *RoomWorkspace) int {
	n := 0
	for _, d := range ws.Transaction.Documents {
		for _, s := range ws.Suggestions[d.Position] {
			covered := false
			for _, tag := range d.Tags {
				if tag.Page == s.Page && coversSuggestion(tag, s.DetectedTag) {
					covered = true
					break
				}
			}
			if !covered {
				n++
			}
		}
	}
	return n
}

// coversSuggestion tells whether a tag covers a suggested field: their
// overlap is at least half the smaller of the two (the editor's covers, in
// web/src/editor/suggestions.mjs).
func coversSuggestion(tag Tag, s detect.DetectedTag) bool {
	w := min(tag.X+tag.Width, s.X+s.Width) - max(tag.X, s.X)
	h := min(tag.Y+tag.Height, s.Y+s.Height) - max(tag.Y, s.Y)
	if w <= 0 || h <= 0 {
		return false
	}
	return w*h >= 0.5*min(tag.Width*tag.Height, s.Width*s.Height)
}
