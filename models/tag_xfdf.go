package models

import (
	"encoding/json"
	"strconv"

	"github.com/markuproom/markuproom/models/xfdf"
)

// The XFDF mapping: how a document's tags become the annotations of its
// XFDF.

// tagCustomData is what a generated XFDF annotation carries about its tag.
type tagCustomData struct {
	Type        string          `json:"type"`
	SignerID    string          `json:"signerId"`
	Page        int             `json:"page"`
	Required    *bool           `json:"required,omitempty"`
	StateFormat *string         `json:"stateFormat,omitempty"`
	DateFormat  *string         `json:"dateFormat,omitempty"`
	FontSize    *float64        `json:"fontSize,omitempty"`
	CustomData  json.RawMessage `json:"customData"`
}

// tagsToXFDF converts one document's tags into the XFDF annotations
// generated for them (xfdf.Merge replaces the previous ones with these): one
// per tag, named GeneratedName(txID/docPos, i), on the tag's page and
// rectangle, in its signer's colour, carrying the tag's fields as JSON.
func tagsToXFDF(txID string, docPos int, tags []Tag, colorOf map[string]string) []xfdf.Annotation {
	out := make([]xfdf.Annotation, len(tags))
	key := txID + "/" + strconv.Itoa(docPos)
	for i, t := range tags {
		cd, _ := json.Marshal(tagCustomData{
			Type: t.Type, SignerID: t.SignerID, Page: t.Page, Required: t.Required, StateFormat: t.StateFormat,
			DateFormat: t.DateFormat, FontSize: t.FontSize, CustomData: json.RawMessage(t.CustomData.orEmpty()),
		})
		color := colorOf[t.SignerID]
		if color == "" {
			color = UnassignedColor
		}
		out[i] = xfdf.Annotation{
			Name:       xfdf.GeneratedName(key, i),
			Page:       t.Page - 1,
			Rect:       xfdf.Rect{X1: t.X, Y1: t.Y, X2: t.X + t.Width, Y2: t.Y + t.Height},
			Color:      color,
			Subject:    t.Type,
			Title:      t.SignerID,
			CustomData: cd,
		}
	}
	return out
}
