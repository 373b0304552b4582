package handlers

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/tagtype"
	"github.com/markuproom/markuproom/templates"
)

var update = flag.Bool("update", false, "rewrite the editor's fixtures under web/test/testdata/")

// tagText is one tag's words as the server draws them, for the editor's
// tests to compare with its own (web/test/taglabel.test.mjs).
type tagText struct {
	Type       string `json:"type"`
	DateFormat string `json:"dateFormat"`
	Text       string `json:"text"`
}

// TestTagTextsOfTheCatalog checks the words on a tag drawn from
// models/tagtype's facts (a date tag says what it holds and its format, never
// a date), and keeps web/test/testdata current: tag-types.json is the
// viewer's data-tag-types as the page carries it and tag-texts.json the
// server's words on each kind of tag, which the editor's tests read to say
// the same (-update rewrites both).
func TestTagTextsOfTheCatalog(t *testing.T) {
	t.Parallel()
	text := func(code, format string) string {
		tag := &models.Tag{Type: code}
		if format != "" {
			tag.DateFormat = &format
		}
		return templates.TagText(context.Background(), viewerSigners{}.tagView(tag, true))
	}
	for _, c := range []struct{ code, format, want string }{
		{tagtype.Date, "", "Date signed · MM/DD/YYYY"},
		{tagtype.Date, "MMMM do, yyyy", "Date signed · MMMM do, yyyy"},
		{tagtype.Date, "full", "Date signed · full date"},
		{tagtype.CommissionExpiration, "DD/MM/YY", "Commission expiration · DD/MM/YY"},
		{tagtype.Initials, "", "Initials"},
	} {
		if got := text(c.code, c.format); got != c.want {
			t.Errorf("%s %q: %q, want %q", c.code, c.format, got, c.want)
		}
	}

	var texts []tagText
	for _, tt := range tagtype.All() {
		texts = append(texts, tagText{Type: tt.Code, Text: text(tt.Code, "")})
		if tt.IsDate {
			for _, f := range models.DateFormats() {
				texts = append(texts, tagText{Type: tt.Code, DateFormat: f, Text: text(tt.Code, f)})
			}
		}
	}
	data, err := json.MarshalIndent(texts, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "../web/test/testdata/tag-texts.json", append(data, '\n'))
	golden(t, "../web/test/testdata/tag-types.json", []byte(templates.TagTypesJSON(context.Background(), tagTypes())+"\n"))
}

// golden compares want with the file at path, or writes it with -update.
func golden(t *testing.T, path string, want []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("%s is not current (err %v): go test ./handlers -run TestTagTextsOfTheCatalog -update", path, err)
	}
}
