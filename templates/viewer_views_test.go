package templates

import "testing"

// A date tag says what it holds and its format, never a date; the editor's
// tagText (web/test/taglabel.test.mjs) expects the same words.
func TestTagText(t *testing.T) {
	cases := []struct {
		tag  TagView
		want string
	}{
		{TagView{Type: "DATETEMPLATE", Label: "Date"}, "Date signed · MM/DD/YYYY"},
		{TagView{Type: "DATETEMPLATE", Label: "Date", DateFormat: "MMMM do, yyyy"}, "Date signed · MMMM do, yyyy"},
		{TagView{Type: "DATETEMPLATE", Label: "Date", DateFormat: "full"}, "Date signed · full date"},
		{TagView{Type: "COMMISSIONEXPIRATIONTEMPLATE", Label: "Commission expiration", DateFormat: "DD/MM/YY"}, "Commission expiration · DD/MM/YY"},
		{TagView{Type: "INITIALSTEMPLATE", Label: "Initials"}, "Initials"},
	}
	for _, c := range cases {
		if got := TagText(c.tag); got != c.want {
			t.Errorf("TagText(%s %q) = %q, want %q", c.tag.Type, c.tag.DateFormat, got, c.want)
		}
	}
}
