package models

import (
	"math"
	"slices"
	"strings"

	"github.com/markuproom/markuproom/web/i18n"
)

// The rules of a field's value, apart from how the value was sent. A
// decoder (the API's JSON in jsonin.go, a room batch's JSON in
// tag_batch.go, a room form in tag_draft.go and participant_draft.go) reads
// each field into a typed value, reporting only what is wrong with the
// encoding (a JSON string where a number belongs); fieldChecker then
// applies the same rules to the value whichever way it came: required,
// blank, length, text, enum, range and whole-number checks, with the same
// codes and messages.

// fieldChecker checks the decoded fields of one object; problems point
// below base.
type fieldChecker struct {
	p    *Problems
	base string
	// refused names the fields that were sent but could not be read as
	// their type: their problem is reported already, so no "required"
	// follows it.
	refused []string
	// nested names the fields read from inside customData (a tag's lifted
	// fields may sit there): their problems point there.
	nested []string
}

// at returns the pointer of a field of the checked object.
func (c fieldChecker) at(name string) string {
	if slices.Contains(c.nested, name) {
		return pointer(pointer(c.base, "customData"), name)
	}
	return pointer(c.base, name)
}

// absent reports a missing required field (unless its value was refused).
func (c fieldChecker) absent(name string, required bool) {
	if required && !slices.Contains(c.refused, name) {
		c.p.Add(c.at(name), "required", "problem.field.required", "field", Quoted(name))
	}
}

// str checks a string: present when required and not blank, at most max
// characters (0 means no bound beyond the body limit), no NUL or invalid
// UTF-8, which PostgreSQL text cannot store.
func (c fieldChecker) str(name string, v *string, required bool, max int) (string, bool) {
	if v == nil {
		c.absent(name, required)
		return "", false
	}
	s := *v
	if required && strings.TrimSpace(s) == "" {
		c.p.Add(c.at(name), "required", "problem.field.blank", "field", Quoted(name))
		return s, false
	}
	if max <= 0 {
		max = int(^uint(0) >> 1)
	}
	if code, msg := textProblem(s, max); code != "" {
		c.p.AddMessage(c.at(name), code, msg)
		return s, false
	}
	return s, true
}

// optStr checks an optional string; nil when absent or invalid.
func (c fieldChecker) optStr(name string, v *string, max int) *string {
	s, ok := c.str(name, v, false, max)
	if !ok {
		return nil
	}
	kept := s // only a value kept is moved to the heap
	return &kept
}

// line checks a string that is one line of text (a title or a name).
func (c fieldChecker) line(name string, v *string, required bool, max int) (string, bool) {
	s, ok := c.str(name, v, required, max)
	if !ok {
		return s, false
	}
	if code, msg := lineCharacterProblem(s); code != "" {
		c.p.AddMessage(c.at(name), code, msg)
		return s, false
	}
	return s, true
}

// optLine checks an optional line of text; nil when absent or invalid.
func (c fieldChecker) optLine(name string, v *string, max int) *string {
	s, ok := c.line(name, v, false, max)
	if !ok {
		return nil
	}
	return &s
}

// headerStr checks an optional one-line string that ends up in a mail
// header: CR, LF and other control characters are refused (header injection).
func (c fieldChecker) headerStr(name string, v *string, max int) *string {
	s := c.optStr(name, v, max)
	if s != nil && strings.ContainsFunc(*s, isControl) {
		c.p.Add(c.at(name), "invalid_character", "problem.field.one_line", "field", Quoted(name))
		return nil
	}
	return s
}

// email checks a required e-mail address.
func (c fieldChecker) email(name string, v *string) string {
	s, ok := c.str(name, v, true, MaxEmailLength)
	if ok && !ValidEmail(s) {
		c.p.Add(c.at(name), "invalid_email", "problem.value.invalid_email", "value", Quoted(truncateForDetail(s)))
	}
	return s
}

// enum checks a string that must be one of allowed.
func (c fieldChecker) enum(name string, v *string, required bool, allowed []string) (string, bool) {
	s, ok := c.str(name, v, required, 0)
	if !ok {
		return "", false
	}
	if slices.Contains(allowed, s) {
		return s, true
	}
	c.p.Add(c.at(name), "invalid_enum", "problem.value.not_allowed", "value", Quoted(truncateForDetail(s)), "allowed", strings.Join(allowed, ", "))
	return "", false
}

// locale checks an optional language tag (an extension): one of
// i18n.Languages' tags, compared ignoring case, returned in its canonical
// spelling; anything else (a region such as "en-US" too) is refused like an
// enum. nil when absent or invalid.
func (c fieldChecker) locale(name string, v *string) *string {
	s, ok := c.str(name, v, false, 16)
	if !ok {
		return nil
	}
	if l, ok := i18n.Lookup(s); ok {
		return &l.Tag
	}
	c.p.Add(c.at(name), "invalid_enum", "problem.value.not_allowed", "value", Quoted(truncateForDetail(s)), "allowed", strings.Join(i18n.Tags(), ", "))
	return nil
}

// number checks a number within [min, max] (the decoders let through
// finite numbers only).
func (c fieldChecker) number(name string, v *float64, required bool, min, max float64) (float64, bool) {
	if v == nil {
		c.absent(name, required)
		return 0, false
	}
	if f := *v; f < min || f > max {
		c.p.Add(c.at(name), "out_of_range", "problem.field.between", "field", Quoted(name), "min", fmtNum(min), "max", fmtNum(max))
		return f, false
	}
	return *v, true
}

// integer checks a whole number within [min, max].
func (c fieldChecker) integer(name string, v *float64, required bool, min, max int) (int, bool) {
	f, ok := c.number(name, v, required, float64(min), float64(max))
	if !ok {
		return int(f), false
	}
	if f != math.Trunc(f) {
		c.p.Add(c.at(name), "not_integer", "problem.field.not_integer", "field", Quoted(name))
		return 0, false
	}
	return int(f), true
}

// optInt checks an optional whole number; nil when absent or invalid.
func (c fieldChecker) optInt(name string, v *float64, min, max int) *int {
	if v == nil {
		return nil
	}
	n, ok := c.integer(name, v, false, min, max)
	if !ok {
		return nil
	}
	return &n
}
