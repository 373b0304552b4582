package models

import (
	"github.com/markuproom/markuproom/models/pdf/detect"
)

// CheckSuggestionsDecided is the session check's warning about suggested
// fields neither accepted nor dismissed (SessionCheck.Undecided).
const CheckSuggestionsDecided = "suggestions-decided"

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
