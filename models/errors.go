package models

import (
	"errors"
	"fmt"
	"strings"
)

// ErrNotFound reports that a record does not exist or belongs to another organization.
var ErrNotFound = errors.New("not found")

// ErrConflict reports that a write collided with a unique constraint or a concurrent change.
var ErrConflict = errors.New("conflict")

// ErrUnavailable reports that the database cannot be reached (connection
// refused or lost, the server shutting down): the request may be retried
// shortly; nothing of it was committed unless the commit itself was lost.
var ErrUnavailable = errors.New("the database cannot be reached")

// ErrPreconditionFailed reports that an If-Match precondition no longer holds.
var ErrPreconditionFailed = errors.New("precondition failed")

// ErrUnauthorized reports a missing, unknown or revoked credential.
var ErrUnauthorized = errors.New("unauthorized")

// ErrForbidden reports an action the caller's room or role does not allow.
var ErrForbidden = errors.New("forbidden")

// Kind classifies a validation failure by how the caller should fix it.
type Kind int

const (
	// KindInvalid is a malformed request: syntax, types, enums, limits (HTTP 400).
	KindInvalid Kind = iota + 1
	// KindUnprocessable is a well-formed request that cannot be carried out (HTTP 422).
	KindUnprocessable
	// KindTooLarge is a body or file over its size limit (HTTP 413).
	KindTooLarge
	// KindUnsupportedMedia is a body of a content type the endpoint does not take (HTTP 415).
	KindUnsupportedMedia
	// KindNotFound is a request naming a record that does not exist, told
	// with the pointer of the place that names it (HTTP 404; errors.Is
	// ErrNotFound).
	KindNotFound
)

// FieldError is one problem with one place of a request.
type FieldError struct {
	// Pointer is a JSON Pointer into the request body ("#/documents/0/title"),
	// or the name of a header or parameter prefixed with its location.
	Pointer string `json:"pointer"`
	// Code is a stable snake_case word a program can switch on.
	Code string `json:"code"`
	// Detail is the sentence for a person: the problem writer (handlers)
	// writes it from Message in the reader's language; models leave it
	// empty (docs/words.md).
	Detail string `json:"detail"`
	// Message is the catalog id and the arguments of Detail.
	Message Message `json:"-"`
}

// ValidationError lists every problem found in one request.
type ValidationError struct {
	Kind Kind
	// Message says what the problems are about, as a whole (the problem's
	// detail); Detail is its words, written by the problem writer.
	Message Message
	Detail  string
	Errors  []FieldError
}

// Error implements error: ids and arguments for a log line, not words.
func (e *ValidationError) Error() string {
	var b strings.Builder
	b.WriteString(messageOr(e.Message, e.Detail))
	for _, f := range e.Errors {
		fmt.Fprintf(&b, "; %s: %s (%s)", f.Pointer, messageOr(f.Message, f.Detail), f.Code)
	}
	return b.String()
}

// messageOr is m for a log line, else the words already written.
func messageOr(m Message, detail string) string {
	if m.IsZero() {
		return detail
	}
	return m.String()
}

// Is makes a KindNotFound error match ErrNotFound.
func (e *ValidationError) Is(target error) bool {
	return e.Kind == KindNotFound && target == ErrNotFound
}

// Problems collects field errors of one kind while a request is checked.
type Problems struct {
	list []FieldError
}

// Add records one problem at pointer: its code and its message, a
// catalog id written whole and the message's name, value arguments.
func (p *Problems) Add(pointer, code, id string, args ...any) {
	p.AddMessage(pointer, code, Message{ID: id, Args: args})
}

// AddMessage records one problem at pointer with a message made elsewhere
// (a shared check's).
func (p *Problems) AddMessage(pointer, code string, m Message) {
	p.list = append(p.list, FieldError{Pointer: pointer, Code: code, Message: m})
}

// Len tells how many problems were recorded.
func (p *Problems) Len() int { return len(p.list) }

// Err returns nil when nothing was recorded, else a *ValidationError of
// kind (see kindOf) whose message, a catalog id and its arguments, says
// what the problems are about.
func (p *Problems) Err(kind Kind, id string, args ...any) error {
	if len(p.list) == 0 {
		return nil
	}
	return &ValidationError{Kind: p.kindOf(kind), Message: Message{ID: id, Args: args}, Errors: p.list}
}

// kindOf is kind, except that a list of syntax problems (KindInvalid)
// whose every problem is a well-formed value refused for what it would
// make people read (CodeBidiControl) is unprocessable: those values are
// found by the same line checks as the syntax problems, but 422 says that
// the request is well-formed.
func (p *Problems) kindOf(kind Kind) Kind {
	if kind != KindInvalid || len(p.list) == 0 {
		return kind
	}
	for _, f := range p.list {
		if f.Code != CodeBidiControl {
			return kind
		}
	}
	return KindUnprocessable
}

// Refusal builds a single-problem error of kind: the message (a catalog
// id and its arguments) is the problem's and its one field error's.
func Refusal(kind Kind, pointer, code string, m Message) error {
	return &ValidationError{Kind: kind, Message: m, Errors: []FieldError{{Pointer: pointer, Code: code, Message: m}}}
}

// Invalid builds a single-problem 400-class error.
func Invalid(pointer, code, id string, args ...any) error {
	return Refusal(KindInvalid, pointer, code, Message{ID: id, Args: args})
}

// NotFoundAt builds a single-problem 404-class error: the record named at
// pointer does not exist (or is not the caller's).
func NotFoundAt(pointer, code, id string, args ...any) error {
	return Refusal(KindNotFound, pointer, code, Message{ID: id, Args: args})
}

// Unprocessable builds a single-problem 422-class error.
func Unprocessable(pointer, code, id string, args ...any) error {
	return Refusal(KindUnprocessable, pointer, code, Message{ID: id, Args: args})
}
