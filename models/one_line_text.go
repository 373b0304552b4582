package models

import "strings"

// Titles, subjects and names are one line of text: they are shown in pages,
// lists, file names and e-mail headers, where a tab, a line break or another
// control character either breaks the layout or smuggles in something else.
// lineProblem is the one validator of such a value; the API's JSON fields
// and the room and console forms all call it (through fieldChecker.line,
// which jsonObject.line and the room's participant form use, checkLine and
// checkRequiredLine).

// lineProblem is textProblem for one line of text: control characters (C0
// with tab, CR and LF, DEL, C1, and the Unicode line and paragraph
// separators) are refused too, and so are bidirectional controls
// (lineCharacterProblem).
func lineProblem(s string, max int) (code string, msg Message) {
	if code, msg := textProblem(s, max); code != "" {
		return code, msg
	}
	return lineCharacterProblem(s)
}

// CodeBidiControl is the code of a name or title refused for a
// bidirectional embedding, override or isolate control (docs/decisions.md,
// "Names with bidirectional controls"): U+202A–U+202E and U+2066–U+2069 make
// the text after them read in another order than it is stored — an audit
// line, a participant list, a file name — until the end of the paragraph.
// The implicit marks (U+200E, U+200F, U+061C) move no other text and stay
// allowed: names in Arabic or Hebrew beside digits may need them.
const CodeBidiControl = "bidi_control"

// lineCharacterProblem tells which characters one line of text may not
// contain, if it contains any.
func lineCharacterProblem(s string) (code string, msg Message) {
	if strings.ContainsFunc(s, isControl) {
		return "invalid_character", Msg("problem.value.control")
	}
	if strings.ContainsFunc(s, isBidiControl) {
		return CodeBidiControl, Msg("problem.value.bidi")
	}
	return "", Message{}
}

// isBidiControl reports the explicit bidirectional formatting characters:
// embeddings and overrides (U+202A–U+202E) and isolates (U+2066–U+2069).
func isBidiControl(r rune) bool {
	return (r >= '\u202a' && r <= '\u202e') || (r >= '\u2066' && r <= '\u2069')
}

// checkLine records a problem when s is not one line of at most max characters.
func checkLine(p *Problems, pointer, s string, max int) {
	if code, msg := lineProblem(s, max); code != "" {
		p.AddMessage(pointer, code, msg)
	}
}

// checkRequiredLine is checkLine for a value that must not be blank.
func checkRequiredLine(p *Problems, pointer, s string, max int) {
	if strings.TrimSpace(s) == "" {
		p.Add(pointer, "required", "problem.field.required_line")
		return
	}
	checkLine(p, pointer, s, max)
}

// line reads a string field that is one line of text (a title or a name).
func (o *jsonObject) line(name string, required bool, max int) (string, bool) {
	v, refused := o.text(name)
	return o.check(name, refused).line(name, v, required, max)
}
