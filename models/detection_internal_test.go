package models

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/markuproom/markuproom/models/pdf/detect"
)

// TestDetectedCustomDataBounded: a placed tag's customData stays within
// the API's MaxCustomDataBytes whatever text the detection holds (a stored
// detection may predate the cap on detected texts), its text cut to
// detect.MaxTextRunes; control characters, escaped six bytes each in JSON,
// included.
func TestDetectedCustomDataBounded(t *testing.T) {
	t.Parallel()
	for name, text := range map[string]string{
		"long":     strings.Repeat("n", 1<<20),
		"escaped":  strings.Repeat("\x01", 100_000),
		"wide":     strings.Repeat("\U0001F600", 100_000),
		"short":    "{{signature|1}}",
		"emptyish": "",
	} {
		cd, err := detectedCustomData(detect.DetectedTag{Source: detect.SourceFormField, Text: text})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(cd) > MaxCustomDataBytes {
			t.Errorf("%s: %d bytes", name, len(cd))
		}
		var got struct {
			Source string `json:"detectedFrom"`
			Text   string `json:"detectedText"`
		}
		if err := json.Unmarshal(cd, &got); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if want := []rune(text); got.Source != detect.SourceFormField || utf8.RuneCountInString(got.Text) != min(len(want), detect.MaxTextRunes) || !strings.HasPrefix(text, got.Text) {
			t.Errorf("%s: %q from %q with %d runes", name, got.Source, got.Text[:min(len(got.Text), 20)], utf8.RuneCountInString(got.Text))
		}
	}
}
