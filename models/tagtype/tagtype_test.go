package tagtype

import (
	"os"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/web/i18n"
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
		if tt.DefaultWidth <= 0 || tt.DefaultHeight <= 0 {
			t.Errorf("%s: default size missing: %+v", tt.Code, tt)
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
		if tt.IsDate == (tt.Key.Words == "") {
			t.Errorf("%s: date %v, words %q: a date type says what it holds, no other", tt.Code, tt.IsDate, tt.Key.Words)
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
			dates = append(dates, tt.Code+"="+i18n.English().T(tt.Key.Words))
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

// Every tag type's words are in every catalog, under the ids its Key
// names, and each language names each type its own way; so is each palette
// group's title.
func TestCatalogWordsAreInTheMessageCatalogs(t *testing.T) {
	cats, err := i18n.Catalogs()
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range i18n.Languages {
		names := map[string]string{}
		for _, tt := range All() {
			for _, id := range []string{tt.Key.Name, tt.Key.Description, tt.Key.Words, tt.Key.Short} {
				if _, ok := cats[lang.Tag][id]; id != "" && !ok {
					t.Errorf("%s: %s has no message %q", lang.Tag, tt.Code, id)
				}
			}
			name := i18n.New(lang).T(tt.Key.Name)
			if other, dup := names[name]; dup {
				t.Errorf("%s: %s and %s are both %q", lang.Tag, tt.Code, other, name)
			}
			names[name] = tt.Code
		}
		for _, g := range []string{GroupSigner, GroupText, GroupNotary} {
			if _, ok := cats[lang.Tag][GroupTitleID(g)]; !ok {
				t.Errorf("%s: group %s has no title", lang.Tag, g)
			}
		}
	}
	es, _ := i18n.Lookup("es")
	if tt, _ := ByCode(Signature); i18n.New(es).T(tt.Key.Name) != "Firma" {
		t.Errorf("es signature = %q", i18n.New(es).T(tt.Key.Name))
	}
}
