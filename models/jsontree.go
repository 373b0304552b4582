package models

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// jsonNode is one value of a request body, found in a single pass over its
// bytes: raw is the value's exact text (customData keeps it byte for byte),
// objects keep their members in order.
type jsonNode struct {
	kind string // object, array, string, number, boolean, null
	raw  []byte
	keys [][]byte // decoded member names of an object
	// vals are an object's member values (beside keys) or an array's elements.
	vals []jsonNode
}

// scanJSON indexes b, which must already have passed json.Valid.
func scanJSON(b []byte) jsonNode {
	s := &jsonScanner{b: b}
	return s.value()
}

// jsonScanner indexes a valid JSON text in one pass. The members of the
// objects and arrays being read wait on stack (their names on keyStack);
// when a container ends they are copied into slices of exactly their
// length, cut from a few shared chunks (arena, keyArena), so a body of
// many small objects costs a few allocations instead of several per object.
type jsonScanner struct {
	b []byte
	i int

	stack    []jsonNode
	keyStack [][]byte
	arena    []jsonNode
	keyArena [][]byte
}

// arenaChunk is how many nodes (or names) one chunk of the arena holds: a
// container larger than what is left gets a chunk of its own size.
const arenaChunk = 256

// nodes copies from into a slice of its length cut from the arena.
func (s *jsonScanner) nodes(from []jsonNode) []jsonNode {
	k := len(from)
	if k > cap(s.arena)-len(s.arena) {
		s.arena = make([]jsonNode, 0, max(k, arenaChunk))
	}
	out := s.arena[len(s.arena) : len(s.arena)+k : len(s.arena)+k]
	s.arena = s.arena[:len(s.arena)+k]
	copy(out, from)
	return out
}

// keys is nodes for member names.
func (s *jsonScanner) keys(from [][]byte) [][]byte {
	k := len(from)
	if k > cap(s.keyArena)-len(s.keyArena) {
		s.keyArena = make([][]byte, 0, max(k, arenaChunk))
	}
	out := s.keyArena[len(s.keyArena) : len(s.keyArena)+k : len(s.keyArena)+k]
	s.keyArena = s.keyArena[:len(s.keyArena)+k]
	copy(out, from)
	return out
}

func (s *jsonScanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *jsonScanner) value() jsonNode {
	s.space()
	start := s.i
	var n jsonNode
	switch s.b[s.i] {
	case '{':
		n.kind = "object"
		s.i++
		s.space()
		if s.b[s.i] == '}' {
			s.i++
			n.keys, n.vals = [][]byte{}, []jsonNode{}
			break
		}
		base, keyBase := len(s.stack), len(s.keyStack)
		for {
			s.space()
			k := s.i
			s.skipString()
			s.keyStack = append(s.keyStack, decodeJSONKey(s.b[k:s.i]))
			s.space()
			s.i++ // ':'
			v := s.value()
			s.stack = append(s.stack, v)
			s.space()
			c := s.b[s.i]
			s.i++ // ',' or '}'
			if c == '}' {
				break
			}
		}
		n.keys, n.vals = s.keys(s.keyStack[keyBase:]), s.nodes(s.stack[base:])
		s.keyStack, s.stack = s.keyStack[:keyBase], s.stack[:base]
	case '[':
		n.kind = "array"
		s.i++
		s.space()
		if s.b[s.i] == ']' {
			s.i++
			n.vals = []jsonNode{}
			break
		}
		base := len(s.stack)
		for {
			v := s.value()
			s.stack = append(s.stack, v)
			s.space()
			c := s.b[s.i]
			s.i++ // ',' or ']'
			if c == ']' {
				break
			}
		}
		n.vals = s.nodes(s.stack[base:])
		s.stack = s.stack[:base]
	case '"':
		n.kind = "string"
		s.skipString()
	case 't':
		n.kind = "boolean"
		s.i += 4
	case 'f':
		n.kind = "boolean"
		s.i += 5
	case 'n':
		n.kind = "null"
		s.i += 4
	default:
		n.kind = "number"
		for s.i < len(s.b) && isNumberByte(s.b[s.i]) {
			s.i++
		}
	}
	n.raw = s.b[start:s.i]
	return n
}

func (s *jsonScanner) skipString() {
	s.i++ // opening quote
	for s.b[s.i] != '"' {
		if s.b[s.i] == '\\' {
			s.i++
		}
		s.i++
	}
	s.i++
}

func isNumberByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}

// decodeJSONString turns a JSON string literal into its value; plain ASCII or
// UTF-8 without escapes is sliced without decoding.
func decodeJSONString(raw []byte) string {
	inner := raw[1 : len(raw)-1]
	plain := utf8.Valid(inner)
	for _, c := range inner {
		if c == '\\' {
			plain = false
			break
		}
	}
	if plain {
		return string(inner)
	}
	var s string
	_ = json.Unmarshal(raw, &s)
	return s
}

// decodeJSONKey is decodeJSONString for member names, without copying plain ones.
func decodeJSONKey(raw []byte) []byte {
	inner := raw[1 : len(raw)-1]
	for _, c := range inner {
		if c == '\\' || c >= utf8.RuneSelf {
			return []byte(decodeJSONString(raw))
		}
	}
	return inner
}

// float reads a number node; false for numbers outside float64.
func (n jsonNode) float() (float64, bool) {
	f, err := strconv.ParseFloat(string(n.raw), 64)
	return f, err == nil
}

// boolean reads a boolean node.
func (n jsonNode) boolean() bool { return len(n.raw) > 0 && n.raw[0] == 't' }

// locateBadText finds, in a valid JSON text, the first string (member name
// or value) that PostgreSQL text could not hold: invalid UTF-8, which
// encoding/json lets through (and would read as U+FFFD), or a \u0000
// escape. It answers the string's JSON Pointer and "invalid_encoding" or
// "invalid_character", or "" when every string is fine. Both checks run over
// the whole body first, so a good body is never walked.
func locateBadText(b []byte) (ptr, code string) {
	if utf8.Valid(b) && !hasNULEscape(b) {
		return "", ""
	}
	l := textLocator{jsonScanner: jsonScanner{b: b}}
	l.value("#")
	return l.ptr, l.code
}

// hasNULEscape tells whether a JSON text holds a \u0000 escape; backslashes
// only occur inside strings, each escaping the character after it.
func hasNULEscape(b []byte) bool {
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' {
			continue
		}
		if i+5 < len(b) && b[i+1] == 'u' && string(b[i+2:i+6]) == "0000" {
			return true
		}
		i++
	}
	return false
}

// textLocator walks a valid JSON text, keeping the pointer of where it is,
// until it meets the first bad string.
type textLocator struct {
	jsonScanner
	ptr, code string
}

// value walks one value at ptr; false once a bad string was found.
func (l *textLocator) value(ptr string) bool {
	l.space()
	switch l.b[l.i] {
	case '{':
		l.i++
		l.space()
		if l.b[l.i] == '}' {
			l.i++
			return true
		}
		for {
			l.space()
			k := l.i
			l.skipString()
			member := pointer(ptr, decodeJSONString(l.b[k:l.i]))
			if !l.check(member, l.b[k:l.i]) {
				return false
			}
			l.space()
			l.i++ // ':'
			if !l.value(member) {
				return false
			}
			l.space()
			c := l.b[l.i]
			l.i++
			if c == '}' {
				return true
			}
		}
	case '[':
		l.i++
		l.space()
		if l.b[l.i] == ']' {
			l.i++
			return true
		}
		for n := 0; ; n++ {
			if !l.value(pointer(ptr, n)) {
				return false
			}
			l.space()
			c := l.b[l.i]
			l.i++
			if c == ']' {
				return true
			}
		}
	case '"':
		k := l.i
		l.skipString()
		return l.check(ptr, l.b[k:l.i])
	default:
		for l.i < len(l.b) && !isValueEnd(l.b[l.i]) {
			l.i++
		}
		return true
	}
}

// check records raw (a string literal) as the bad text at ptr if it is.
func (l *textLocator) check(ptr string, raw []byte) bool {
	switch {
	case !utf8.Valid(raw):
		l.ptr, l.code = ptr, "invalid_encoding"
	case hasNULEscape(raw):
		l.ptr, l.code = ptr, "invalid_character"
	default:
		return true
	}
	return false
}

func isValueEnd(c byte) bool {
	return c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\n' || c == '\r'
}
