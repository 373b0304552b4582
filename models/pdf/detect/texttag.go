package detect

import (
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/tagtype"
)

// Problem codes of text tags.
const (
	ProblemUnclosed       = "unclosed_tag"
	ProblemEmpty          = "empty_tag"
	ProblemUnknownType    = "unknown_type"
	ProblemBadSigner      = "bad_signer"
	ProblemUnknownOption  = "unknown_option"
	ProblemBadSize        = "bad_size"
	ProblemBadFontSize    = "bad_font_size"
	ProblemDateNotAllowed = "date_format_not_allowed"
	ProblemDuplicate      = "duplicate_option"
)

// tagPattern finds "{{…}}" with no braces inside.
var tagPattern = regexp.MustCompile(`\{\{([^{}]*)\}\}`)

// textTag is a parsed text tag before it is placed.
type textTag struct {
	typ        string
	signer     *int
	required   bool
	dateFormat string
	fontSize   float64
	w, h       float64
}

// parseTextTag reads the inside of a text tag "type|signer|option|…" (the
// braces removed) by the grammar of the README ("Tags written into the
// PDF"): type is a type code (models/tagtype) or a tag name
// (case-insensitive); signer is empty or a 1-based participant position;
// each option is "optional", "required", a date format (date types only),
// "w=<points>", "h=<points>" or "font=<points>". It returns the problem code
// and specifics of a malformed tag.
func parseTextTag(inner string) (textTag, string, ProblemArgs) {
	parts := strings.Split(inner, "|")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	if parts[0] == "" {
		return textTag{}, ProblemEmpty, ProblemArgs{}
	}
	typ, ok := resolveType(parts[0])
	if !ok {
		return textTag{}, ProblemUnknownType, ProblemArgs{Value: parts[0]}
	}
	t := textTag{typ: typ, required: true}
	if len(parts) > 1 && parts[1] != "" {
		n, err := strconv.Atoi(parts[1])
		if err != nil || n < 1 || n > maxSigner {
			return textTag{}, ProblemBadSigner, ProblemArgs{Value: parts[1], Max: maxSigner}
		}
		t.signer = &n
	}
	seen := map[string]bool{}
	for _, o := range parts[min(2, len(parts)):] {
		if o == "" {
			continue
		}
		key, val, hasValue := strings.Cut(o, "=")
		key = strings.ToLower(strings.TrimSpace(key))
		val = strings.TrimSpace(val)
		kind := key
		switch {
		case hasValue && (key == "w" || key == "h" || key == "font"):
		case !hasValue && (key == "optional" || key == "required"):
			kind = "required"
		case !hasValue:
			f, ok := dateFormat(o)
			if !ok {
				return textTag{}, ProblemUnknownOption, ProblemArgs{Value: o}
			}
			if tt, _ := tagtype.ByCode(typ); !tt.IsDate {
				return textTag{}, ProblemDateNotAllowed, ProblemArgs{Key: typ}
			}
			kind = "date"
			t.dateFormat = f
		default:
			return textTag{}, ProblemUnknownOption, ProblemArgs{Value: o}
		}
		if seen[kind] {
			return textTag{}, ProblemDuplicate, ProblemArgs{Value: kind}
		}
		seen[kind] = true
		switch key {
		case "optional":
			t.required = false
		case "w", "h":
			v, err := strconv.ParseFloat(val, 64)
			if err != nil || v <= 0 || v > maxSide {
				return textTag{}, ProblemBadSize, ProblemArgs{Key: key, Value: val, Max: maxSide}
			}
			if key == "w" {
				t.w = v
			} else {
				t.h = v
			}
		case "font":
			v, err := strconv.ParseFloat(val, 64)
			if err != nil || v <= 0 || v > maxFontSize {
				return textTag{}, ProblemBadFontSize, ProblemArgs{Value: val, Max: maxFontSize}
			}
			t.fontSize = v
		}
	}
	return t, "", ProblemArgs{}
}

// dateFormat matches a date format exactly, or else case-insensitively
// when that picks a single format.
func dateFormat(s string) (string, bool) {
	if slices.Contains(dateFormats, s) {
		return s, true
	}
	var found []string
	for _, f := range dateFormats {
		if strings.EqualFold(f, s) {
			found = append(found, f)
		}
	}
	if len(found) == 1 {
		return found[0], true
	}
	return "", false
}

// pageFinds is what one page yields of text tags and problems, within the
// room the caps leave it; what does not fit is only counted (and not
// compared with what was kept: the count may hold a tag drawn twice).
type pageFinds struct {
	tags                         []DetectedTag
	problems                     []DetectProblem
	tagRoom, problemRoom         int
	droppedTags, droppedProblems int
	seen                         drawn
}

// tag keeps t unless the page is full or t is drawn twice.
func (f *pageFinds) tag(t DetectedTag) {
	if len(f.tags) >= f.tagRoom {
		f.droppedTags++
		return
	}
	if f.seen.add(t) {
		f.tags = append(f.tags, t)
	}
}

// problem keeps p unless the page is full.
func (f *pageFinds) problem(p DetectProblem) {
	if len(f.problems) >= f.problemRoom {
		f.droppedProblems++
		return
	}
	f.problems = append(f.problems, p)
}

// textTags finds the text tags of one page and the malformed ones (runs
// are its runs in display space), keeping at most tagRoom tags and
// problemRoom problems; it stops with the context's error.
func textTags(page int, p pdf.PageLayout, runs []pdf.TextRun, clock *pdf.Ticker, tagRoom, problemRoom int) (*pageFinds, error) {
	f := &pageFinds{tagRoom: tagRoom, problemRoom: problemRoom, seen: drawn{}}
	for _, r := range runs {
		if err := clock.Tick(); err != nil {
			return nil, err
		}
		if !strings.Contains(r.Text, "{{") && !strings.Contains(r.Text, "}}") {
			continue
		}
		idx := runeIndex(r.Text)
		end := 0
		for _, m := range tagPattern.FindAllStringSubmatchIndex(r.Text, -1) {
			if err := clock.Tick(); err != nil {
				return nil, err
			}
			// Anything opened before this tag and never closed is a problem.
			if i := firstOpening(r.Text, end, m[0]); i >= 0 {
				f.problem(unclosed(page, r.Text[i:m[0]]))
			}
			end = m[1]
			if !opensTag(r.Text, m[0], m[1]) {
				continue // "{{ .Name }}", "{{{raw}}}": a code listing's braces
			}
			text := pdf.CutRunes(r.Text[m[0]:m[1]], MaxTextRunes)
			t, code, args := parseTextTag(r.Text[m[2]:m[3]])
			if code != "" {
				args.Value = pdf.CutRunes(args.Value, MaxTextRunes)
				f.problem(DetectProblem{Page: page, Text: text, Code: code, Args: args})
				continue
			}
			if len(f.tags) >= tagRoom {
				f.droppedTags++ // not placed, not compared
				continue
			}
			b := spanBox(r, idx[m[0]], idx[m[1]])
			if t.w > 0 || t.h > 0 {
				w, h := b.Width(), b.Height()
				if t.w > 0 {
					w = t.w
				}
				if t.h > 0 {
					h = t.h
				}
				b = pdf.Box{LLX: b.LLX, LLY: b.LLY, URX: b.LLX + w, URY: b.LLY + h}
			}
			tag := place(p.Page, t.typ, page, b)
			tag.Signer, tag.Source, tag.Text, tag.Confidence = t.signer, SourceTextTag, text, 1
			tag.Required, tag.DateFormat, tag.FontSize = t.required, t.dateFormat, t.fontSize
			f.tag(tag)
		}
		if i := firstOpening(r.Text, end, len(r.Text)); i >= 0 {
			f.problem(unclosed(page, r.Text[i:]))
		}
	}
	return f, nil
}

// opensTag reports whether the "{{" at s[i:] starts the text tag grammar,
// reading no further than s[:to]. Only such a "{{" is a tag or a problem;
// in a code listing ("{{ .Name }}", "{{end}}", "{{1, 2}, {3, 4}}",
// "{{{raw}}}", "{{ user.name }}") the braces are text. It does when the two
// braces (not three or more) are followed, after spaces, by nothing (a tag
// cut by the line's end), "|" or "}}" (an empty tag), or by a type word
// (letters and hyphens, as type codes and names are written) and then "|"
// (the grammar's own mark); a word alone ("{{word}}", or cut by the line's
// end) only when it is a type or a slip of one (nearTypeWord).
func opensTag(s string, i, to int) bool {
	if i > 0 && s[i-1] == '{' || i+2 < len(s) && s[i+2] == '{' {
		return false
	}
	rest := strings.TrimLeft(s[i+2:to], " ")
	if rest == "" || rest[0] == '|' || strings.HasPrefix(rest, "}}") {
		return true
	}
	if !isLetter(rest[0]) {
		return false
	}
	k := 0
	for k < len(rest) && (isLetter(rest[k]) || rest[k] == '-') {
		k++
	}
	word := rest[:k]
	rest = strings.TrimLeft(rest[k:], " ")
	switch {
	case rest != "" && rest[0] == '|':
		return true
	case rest == "" || strings.HasPrefix(rest, "}}"):
		return nearTypeWord(word)
	}
	return false
}

// nearTypeWord reports whether word is a type code or name, or at most two
// letters away from one (a slip: "sigature", "SIGNATURTEMPLATE"), so that
// "{{sigature}}" is still reported while "{{end}}" and "{{ variable }}" of
// a template language are text.
func nearTypeWord(word string) bool {
	if _, ok := resolveType(word); ok {
		return true
	}
	w := strings.ToLower(word)
	if len(w) < 4 {
		return false
	}
	for name := range typeNames {
		if editDistance(w, name) <= 2 {
			return true
		}
	}
	for _, code := range tagtype.Codes() {
		if editDistance(w, strings.ToLower(code)) <= 2 {
			return true
		}
	}
	return false
}

// editDistance is the Levenshtein distance of two short ASCII words.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// firstOpening returns the index of the first "{{" in s[from:to] that
// starts the text tag grammar (opensTag, reading no further than to), or -1.
func firstOpening(s string, from, to int) int {
	for from < to {
		i := strings.Index(s[from:to], "{{")
		if i < 0 {
			return -1
		}
		if opensTag(s, from+i, to) {
			return from + i
		}
		from += i + 1
	}
	return -1
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// drawn holds the text tags of a page by text and by the unit cell of their
// box, so that a tag drawn twice at (almost) the same place, as producers do
// to fake bold type, is found in constant time: two boxes less than a point
// apart in x, y, width and height lie in the same or neighbouring cells.
type drawn map[drawnKey][4]float64

type drawnKey struct {
	text       string
	x, y, w, h int64
}

// add records t and reports whether it is new: false when a tag of the same
// text lies less than a point away in x, y, width and height.
func (d drawn) add(t DetectedTag) bool {
	v := [4]float64{t.X, t.Y, t.Width, t.Height}
	var cell [4]int64
	for i, f := range v {
		cell[i] = int64(math.Floor(f))
	}
	for near := range 81 {
		k := drawnKey{text: t.Text}
		step := near // in base 3, one digit per dimension: -1, 0 or +1
		for i, o := range [4]*int64{&k.x, &k.y, &k.w, &k.h} {
			*o = cell[i] + int64(step%3) - 1
			step /= 3
		}
		if u, ok := d[k]; ok && math.Abs(u[0]-v[0]) < 1 && math.Abs(u[1]-v[1]) < 1 && math.Abs(u[2]-v[2]) < 1 && math.Abs(u[3]-v[3]) < 1 {
			return false
		}
	}
	d[drawnKey{t.Text, cell[0], cell[1], cell[2], cell[3]}] = v
	return true
}

// unclosed reports "{{" without its "}}" on the same line.
func unclosed(page int, text string) DetectProblem {
	text = strings.TrimSpace(text)
	if r := []rune(text); len(r) > 80 {
		text = string(r[:80]) + "…"
	}
	return DetectProblem{Page: page, Text: text, Code: ProblemUnclosed}
}

// runeIndex maps each byte offset of s (and len(s)) to its rune index.
func runeIndex(s string) []int {
	idx := make([]int, len(s)+1)
	n := 0
	for i := range s {
		for k := i; k < len(s) && (k == i || !startsRune(s[k])); k++ {
			idx[k] = n
		}
		n++
	}
	idx[len(s)] = n
	return idx
}

func startsRune(b byte) bool { return b&0xC0 != 0x80 }
