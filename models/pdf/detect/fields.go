package detect

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/tagtype"
)

// fieldNameRule maps a text field whose name matches Pattern to Type.
type fieldNameRule struct {
	pattern *regexp.Regexp
	typ     string
}

// fieldNameRules are tried in order on a text field's name split into
// lower-case words ("BuyerSignDate" reads "buyer sign date").
var fieldNameRules = []fieldNameRule{
	{regexp.MustCompile(`\bcommission (expires|expiration|exp)\b`), tagtype.CommissionExpiration},
	{regexp.MustCompile(`\bcommission (no|number|id|num)\b`), tagtype.CommissionID},
	{regexp.MustCompile(`\b(date|dated)\b`), tagtype.Date},
	{regexp.MustCompile(`\b(initials?|inits?)\b`), tagtype.Initials},
	{regexp.MustCompile(`\bname\b`), tagtype.FullName},
	// A title alone is a person's or a document's; the notary's is named so.
	{regexp.MustCompile(`\bnotary( s)? (official )?title\b|\btitle of (the )?notary\b`), tagtype.NotaryTitle},
	{regexp.MustCompile(`\bcounty\b`), tagtype.NotaryCounty},
	{regexp.MustCompile(`\bstate\b`), tagtype.NotaryState},
}

// signerPattern reads a signer position from a field name ("signer 2").
var signerPattern = regexp.MustCompile(`\b(signer|party|participant) ?(\d{1,3})\b`)

// formFields turns the page's form field widgets into tags: a signature
// field is a signature; a text field takes the type its name suggests, or
// free-form text; check boxes, radio buttons and choices are free-form text.
// Push buttons are not fields anyone fills in and are left out.
func formFields(page int, p pdf.PageLayout) []DetectedTag {
	var out []DetectedTag
	for _, w := range p.Widgets {
		words := nameWords(w.Name)
		typ := tagtype.FreeText
		switch w.Kind {
		case pdf.WidgetPushButton:
			continue
		case pdf.WidgetSignature:
			typ = tagtype.Signature
		case pdf.WidgetText:
			for _, r := range fieldNameRules {
				if r.pattern.MatchString(words) {
					typ = r.typ
					break
				}
			}
		}
		t := place(p.Page, typ, page, p.ToDisplay(w.Box))
		t.Source, t.Text, t.Confidence, t.Required = SourceFormField, w.Name, 1, w.Required
		if m := signerPattern.FindStringSubmatch(words); m != nil {
			if n, err := strconv.Atoi(m[2]); err == nil && n >= 1 && n <= 100 {
				t.Signer = &n
			}
		}
		out = append(out, t)
	}
	return out
}

// nameWords splits a field name into lower-case words at punctuation, case
// changes and between letters and digits.
func nameWords(name string) string {
	var sb strings.Builder
	var prev rune
	for i, r := range name {
		lower, upper := r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z'
		digit := r >= '0' && r <= '9'
		if !lower && !upper && !digit {
			sb.WriteByte(' ')
			prev = ' '
			continue
		}
		if i > 0 {
			pl, pu, pd := prev >= 'a' && prev <= 'z', prev >= 'A' && prev <= 'Z', prev >= '0' && prev <= '9'
			if (upper && pl) || (digit && (pl || pu)) || ((lower || upper) && pd) {
				sb.WriteByte(' ')
			}
		}
		sb.WriteRune(r)
		prev = r
	}
	return strings.Join(strings.Fields(strings.ToLower(sb.String())), " ")
}
