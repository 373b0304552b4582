package tagtype

import (
	"os"
	"strings"
	"testing"
)

// Every row of the catalog is whole: a code of its own, a known group, a
// size, an icon drawn in static/img/tags.svg, and a date type's format.
func TestCatalogRows(t *testing.T) {
	sprite, err := os.ReadFile("../../static/img/tags.svg")
	if err != nil {
		t.Fatal(err)
	}
	codes, icons := map[string]bool{}, map[string]string{}
	for _, tt := range All() {
		if tt.Code == "" || codes[tt.Code] {
			t.Errorf("code %q is empty or listed twice", tt.Code)
		}
		codes[tt.Code] = true
		if got, ok := ByCode(tt.Code); !ok || got.Code != tt.Code {
			t.Errorf("ByCode(%s) = %v, %v", tt.Code, got, ok)
		}
		if tt.Group != GroupSigner && tt.Group != GroupText && tt.Group != GroupNotary {
			t.Errorf("%s: group %q is not a palette group", tt.Code, tt.Group)
		}
		if tt.Label == "" || tt.Description == "" || tt.DefaultWidth <= 0 || tt.DefaultHeight <= 0 {
			t.Errorf("%s: label, description or default size missing: %+v", tt.Code, tt)
		}
		if other, dup := icons[tt.Icon]; dup {
			t.Errorf("%s and %s share the icon %q", tt.Code, other, tt.Icon)
		}
		icons[tt.Icon] = tt.Code
		if tt.Icon == "" || !strings.Contains(string(sprite), `<symbol id="`+tt.Icon+`"`) {
			t.Errorf("%s: icon %q is not a symbol of static/img/tags.svg", tt.Code, tt.Icon)
		}
		if tt.IsDate != (tt.DefaultFormat == DefaultDateFormat) || (tt.IsDate && tt.IsState) {
			t.Errorf("%s: date %v, state %v, default format %q", tt.Code, tt.IsDate, tt.IsState, tt.DefaultFormat)
		}
		if !tt.IsDate && tt.DateWords != "" {
			t.Errorf("%s: date words %q on a type that takes no date", tt.Code, tt.DateWords)
		}
	}
	if len(codes) != 18 {
		t.Errorf("%d tag types, want the 18 of the OpenAPI document", len(codes))
	}
	if _, ok := ByCode("SIGNATURE"); ok {
		t.Error("ByCode found a code that is not one")
	}
}

// The facts that decide behaviour elsewhere: the date and state types, the
// words a date tag says, and the sizes the palette and detection give.
func TestCatalogFacts(t *testing.T) {
	var dates, states []string
	for _, tt := range All() {
		if tt.IsDate {
			dates = append(dates, tt.Code+"="+tt.Words())
		}
		if tt.IsState {
			states = append(states, tt.Code)
		}
	}
	if got := strings.Join(dates, ","); got != Date+"=Date signed,"+CommissionExpiration+"=Commission expiration" {
		t.Errorf("date types %s", got)
	}
	if got := strings.Join(states, ","); got != NotaryState {
		t.Errorf("state types %s", got)
	}
	for code, size := range map[string][2]float64{Signature: {144, 36}, Initials: {60, 30}, Date: {96, 20}, Seal: {108, 108}} {
		if tt, _ := ByCode(code); tt.DefaultWidth != size[0] || tt.DefaultHeight != size[1] {
			t.Errorf("%s: %v×%v, want %v×%v", code, tt.DefaultWidth, tt.DefaultHeight, size[0], size[1])
		}
	}
}
