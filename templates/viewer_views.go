package templates

import (
	"context"
	"encoding/json"

	"github.com/markuproom/markuproom/web/i18n"
)

// ViewerView is the page viewer: every page of every document in one
// scrolling column, with the tags drawn at their PDF coordinates. The
// Markup Room edits it; the admin console shows it read-only. The browser
// side (static/js/editor.js) renders the pages with pdf.js and positions the
// tags from the data attributes this view writes.
type ViewerView struct {
	// Editable turns on the tag tools (the room with documents.edit).
	Editable bool
	// PDFJSURL, WorkerURL and FontsURL locate the vendored pdf.js files.
	PDFJSURL, WorkerURL, FontsURL string
	// IconsURL is the SVG sprite of the tag type icons (static/img/tags.svg).
	IconsURL string
	// TagURL receives new tags (POST); each tag's SaveURL its changes and
	// removal. Empty when not editable.
	TagURL string
	// SuggestionsURL receives dismissals of suggested fields (POST, JSON).
	// Empty when not editable.
	SuggestionsURL string
	// TagTypes are every tag type, in palette order, which the view writes
	// as JSON for the editor to read (data-tag-types).
	TagTypes []ViewerTagType
	// BatchURL receives a group of tag changes in one request (POST, JSON).
	// Empty when not editable.
	BatchURL  string
	Documents []ViewerDocument
}

// ViewerTagType is one tag type as the editor reads it from data-tag-types
// (web/src/editor/taglabel.mjs readTagTypes): its name, default size in
// points, icon, and whether it takes a date (then the words it says before
// its format and the format it starts with) or a state format.
type ViewerTagType struct {
	Code string `json:"code"`
	// LabelID, WordsID and ShortID are the catalog ids of Label, Words and
	// Short, which the view fills in the page's language (TagTypesJSON).
	LabelID string  `json:"-"`
	WordsID string  `json:"-"`
	ShortID string  `json:"-"`
	Label   string  `json:"label"`
	Group   string  `json:"group"`
	Width   float64 `json:"width"`
	Height  float64 `json:"height"`
	Icon    string  `json:"icon"`
	Date    bool    `json:"date,omitempty"`
	Words   string  `json:"words,omitempty"`
	Format  string  `json:"format,omitempty"`
	State   bool    `json:"state,omitempty"`
	// Short is what a tag too narrow for Label says of its type: a short
	// word where the catalog has one, else Label.
	Short string `json:"short"`
}

// ViewerDocument is one document of the viewer.
type ViewerDocument struct {
	// ID is the document's id as the API returns it (data-document-id).
	ID         string
	Position   int
	Title      string
	ContentURL string
	// RestoreURL undoes a page edit or a revision of this document,
	// RemoveURL removes it and ReviseURL revises it again (all POST, for the
	// editor's undo and redo); empty unless the room allows page edits.
	RestoreURL, RemoveURL, ReviseURL string
	Pages                            []ViewerPage
	// Suggestions are the suggested fields the room offers on this
	// document, which the view writes as JSON for the editor to draw
	// (data-suggested-fields); none when the viewer is not editable.
	Suggestions []SuggestionView
	// TextTags is the JSON list of where the document prints its text tags
	// (TextTagBox), for the editor to cover the words under the tags placed
	// from them (data-text-tags); empty when there are none.
	TextTags string
}

// TextTagBox is where a document prints one text tag, in PDF points (user
// space), as the editor reads it from data-text-tags.
type TextTagBox struct {
	Page   int     `json:"page"`
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// SuggestionView is one suggested field as the editor reads it from
// data-suggested-fields: a printed label's blank where a tag could go.
type SuggestionView struct {
	Key  string `json:"key"`
	Page int    `json:"page"`
	Type string `json:"type"`
	// LabelID is the catalog id of Label (the type's name), which the view
	// fills in the page's language.
	LabelID    string  `json:"-"`
	Label      string  `json:"label"`
	Text       string  `json:"text"`
	X          float64 `json:"x"`
	Y          float64 `json:"y"`
	Width      float64 `json:"width"`
	Height     float64 `json:"height"`
	Required   bool    `json:"required"`
	DateFormat string  `json:"dateFormat,omitempty"`
	FontSize   float64 `json:"fontSize,omitempty"`
	Confidence float64 `json:"confidence"`
}

// ViewerPage is one page: its size as displayed (after /Rotate), in points,
// its crop box in PDF user space and its rotation, and its tags.
type ViewerPage struct {
	Number int
	// Width and Height are the displayed size in points.
	Width, Height string
	// Box is the crop box "llx lly urx ury" in PDF points.
	Box    string
	Rotate int
	Tags   []TagView
	// MoveURL and DeleteURL move and delete this page (POST, for the
	// editor's redo of a page edit); empty unless the room allows page edits.
	MoveURL, DeleteURL string
}

// TagView is one tag: its PDF rectangle (bottom-left origin, points) and
// what it is drawn with.
type TagView struct {
	ID string
	// Version is the tag's version, which the editor sends back with an
	// edit of it (a stale one is refused: 409 tag_changed).
	Version  int
	Type     string
	Label    i18n.Words
	Page     int
	X, Y     string
	W, H     string
	SignerID string
	// SignerName is empty for an unassigned tag; Initials are shown on the tag.
	SignerName string
	Initials   string
	// ColorClass colours the tag by its signer ("signer-c0" … or "signer-none").
	ColorClass  string
	Required    bool
	DateFormat  string
	StateFormat string
	FontSize    string
	// DateWords are set on a date tag: what it holds, said before its format
	// ("Date signed · MM/DD/YYYY"); DefaultFormat is the format it is shown
	// with when it names none.
	DateWords     i18n.Words
	DefaultFormat string
	// Editable makes the tag focusable and selectable.
	Editable bool
	// SaveURL is where the editor saves (PUT) and removes (DELETE) the tag;
	// empty when it is not editable.
	SaveURL string
}

// TagText is the words on a tag: its type's name; a date tag, what it holds
// and its format ("Date signed · MM/DD/YYYY"), never a date, which would read
// as fixed. The editor's tagText (web/src/editor/taglabel.mjs) says the same,
// and the same words show whether the server or the editor drew the tag
// (web/test/taglabel.test.mjs reads what the handlers' tests write to
// web/test/testdata/tag-texts.json).
func TagText(ctx context.Context, t TagView) string {
	if t.DateWords == nil {
		return say(ctx, t.Label)
	}
	format := t.DateFormat
	switch format {
	case "":
		format = t.DefaultFormat
	case "full":
		format = "full date"
	}
	return say(ctx, t.DateWords) + " · " + format
}

// tagLabel is the accessible name of a tag.
func tagLabel(ctx context.Context, tag TagView) string {
	// not "required": that word labels the properties checkbox alone
	switch {
	case tag.SignerName == "" && tag.Required:
		return t(ctx, "viewer.tag.label_unassigned_required", "type", tag.Label)
	case tag.SignerName == "":
		return t(ctx, "viewer.tag.label_unassigned", "type", tag.Label)
	case tag.Required:
		return t(ctx, "viewer.tag.label_required", "type", tag.Label, "name", tag.SignerName)
	}
	return t(ctx, "viewer.tag.label", "type", tag.Label, "name", tag.SignerName)
}

// TagTypesJSON is data-tag-types: the tag types with their names and
// words in the page's language (the code stays the code).
func TagTypesJSON(ctx context.Context, types []ViewerTagType) string {
	out := make([]ViewerTagType, len(types))
	for i, tt := range types {
		out[i] = tt
		out[i].Label = t(ctx, tt.LabelID)
		out[i].Short = t(ctx, tt.ShortID)
		if tt.WordsID != "" {
			out[i].Words = t(ctx, tt.WordsID)
		}
	}
	data, err := json.Marshal(out)
	if err != nil { // plain numbers and strings: cannot fail
		return "[]"
	}
	return string(data)
}

// suggestionsJSON is data-suggested-fields: the suggested fields, each
// type named in the page's language.
func suggestionsJSON(ctx context.Context, list []SuggestionView) string {
	out := make([]SuggestionView, len(list))
	for i, s := range list {
		out[i] = s
		if s.LabelID != "" {
			out[i].Label = t(ctx, s.LabelID)
		}
	}
	data, err := json.Marshal(out)
	if err != nil { // plain numbers and strings: cannot fail
		return ""
	}
	return string(data)
}
