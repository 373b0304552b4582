package templates

import (
	"context"
	"testing"

	"github.com/markuproom/markuproom/web/i18n"
)

// A date tag says what it holds and its format, never a date (the handlers'
// TestTagTextsOfTheCatalog checks the same words from models/tagtype's facts
// and hands them to the editor's tests).
func TestTagText(t *testing.T) {
	cases := []struct {
		tag  TagView
		want string
	}{
		{TagView{Type: "DATETEMPLATE", Label: i18n.Plain("Date"), DateWords: i18n.Plain("Date signed"), DefaultFormat: "MM/DD/YYYY"}, "Date signed · MM/DD/YYYY"},
		{TagView{Type: "DATETEMPLATE", Label: i18n.Plain("Date"), DateWords: i18n.Plain("Date signed"), DefaultFormat: "MM/DD/YYYY", DateFormat: "MMMM do, yyyy"}, "Date signed · MMMM do, yyyy"},
		{TagView{Type: "DATETEMPLATE", Label: i18n.Plain("Date"), DateWords: i18n.Plain("Date signed"), DefaultFormat: "MM/DD/YYYY", DateFormat: "full"}, "Date signed · full date"},
		{TagView{Type: "COMMISSIONEXPIRATIONTEMPLATE", Label: i18n.Plain("Commission expiration"), DateWords: i18n.Plain("Commission expiration"), DefaultFormat: "MM/DD/YYYY", DateFormat: "DD/MM/YY"}, "Commission expiration · DD/MM/YY"},
		{TagView{Type: "INITIALSTEMPLATE", Label: i18n.Plain("Initials")}, "Initials"},
	}
	for _, c := range cases {
		if got := TagText(context.Background(), c.tag); got != c.want {
			t.Errorf("TagText(%s %q) = %q, want %q", c.tag.Type, c.tag.DateFormat, got, c.want)
		}
	}
}
