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
// separators) are refused too.
func lineProblem(s string, max int) (code, detail string) {
	if code, detail := textProblem(s, max); code != "" {
		return code, detail
	}
	if strings.ContainsFunc(s, isControl) {
		return "invalid_character", "The value is one line of text: it may not contain tabs, line breaks or other control characters."
	}
	return "", ""
}

// checkLine records a problem when s is not one line of at most max characters.
func checkLine(p *Problems, pointer, s string, max int) {
	if code, detail := lineProblem(s, max); code != "" {
		p.Add(pointer, code, "%s", detail)
	}
}

// checkRequiredLine is checkLine for a value that must not be blank.
func checkRequiredLine(p *Problems, pointer, s string, max int) {
	if strings.TrimSpace(s) == "" {
		p.Add(pointer, "required", "This field is required and must not be blank.")
		return
	}
	checkLine(p, pointer, s, max)
}

// line reads a string field that is one line of text (a title or a name).
func (o *jsonObject) line(name string, required bool, max int) (string, bool) {
	v, refused := o.text(name)
	return o.check(name, refused).line(name, v, required, max)
}
