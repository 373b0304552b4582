package handlers

import "github.com/markuproom/markuproom/models"

// currentTagJSON is a tag as it is now, in a tag_changed refusal: what the
// editor needs to draw it again (docs/live.md).
type currentTagJSON struct {
	ID               string   `json:"id"`
	Version          int      `json:"version"`
	DocumentPosition int      `json:"documentPosition"`
	Type             string   `json:"type"`
	SignerID         string   `json:"signerId"`
	Page             int      `json:"page"`
	X                float64  `json:"x"`
	Y                float64  `json:"y"`
	Width            float64  `json:"width"`
	Height           float64  `json:"height"`
	Required         *bool    `json:"required,omitempty"`
	DateFormat       *string  `json:"dateFormat,omitempty"`
	StateFormat      *string  `json:"stateFormat,omitempty"`
	FontSize         *float64 `json:"fontSize,omitempty"`
}

// currentTags are the refused edits' tags as they are now.
func currentTags(e *models.TagChangedError) []currentTagJSON {
	out := make([]currentTagJSON, len(e.Conflicts))
	for i, c := range e.Conflicts {
		t := &c.Current
		out[i] = currentTagJSON{ID: t.TagID, Version: t.Version, DocumentPosition: t.DocumentPosition, Type: t.Type,
			SignerID: t.SignerID, Page: t.Page, X: t.X, Y: t.Y, Width: t.Width, Height: t.Height, Required: t.Required,
			DateFormat: t.DateFormat, StateFormat: t.StateFormat, FontSize: t.FontSize}
	}
	return out
}
