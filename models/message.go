package models

import (
	"fmt"
	"strings"
)

// Message is words as data: a catalog id (web/i18n/locales, e.g.
// "problem.tx.page_out_of_range") and its arguments as name, value pairs
// ("page", 5, "pages", 3). Models never make words (docs/words.md): they
// hand out a Message, and the problem writer (handlers) or a view writes it
// in the reader's language, so "La página 5 no existe" keeps its 5.
//
// An argument is an int (written as digits, as sent), a string (data shown
// as it is: a list of allowed values, a JSON kind, a number already written
// the way the request wrote it), a Quoted value (data the caller sent,
// shown between quotes), another Message (a sentence inside a sentence) or
// Sentences (several, one after another).
type Message struct {
	ID   string
	Args []any
}

// Msg builds a Message from a catalog id written whole (the catalog tests
// find it in the source) and its name, value pairs.
func Msg(id string, args ...any) Message { return Message{ID: id, Args: args} }

// IsZero tells whether m names no message.
func (m Message) IsZero() bool { return m.ID == "" }

// String writes m for a log line or a test failure: its id and arguments,
// not words.
func (m Message) String() string {
	if len(m.Args) == 0 {
		return m.ID
	}
	var b strings.Builder
	b.WriteString(m.ID)
	b.WriteByte('{')
	for i := 0; i+1 < len(m.Args); i += 2 {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%v=%v", m.Args[i], m.Args[i+1])
	}
	b.WriteByte('}')
	return b.String()
}

// Sentences are messages written one after another, a space between them
// ("problem.room.checklist_unmet"'s list of what fails validation).
type Sentences []Message

// Quoted is a value as the caller sent it (a name, an id, an e-mail
// address): the writer puts it between double quotes with Go's escapes, so
// an empty value or a control character shows for what it is.
type Quoted string
