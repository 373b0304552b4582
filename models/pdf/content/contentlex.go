package content

// A small lexer for content streams (ISO 32000-1, 7.8.2): numbers, names,
// strings, arrays, dictionaries and operators. It is only as complete as text
// extraction needs: dictionaries (marked-content properties) are skipped, and
// inline images are stepped over without being decoded.

import "bytes"

// maxOperands caps the operand stack; operators never take more than a
// handful, so a stream that piles up more is only wasting memory.
const maxOperands = 64

// maxArrayItems caps the array elements kept for one operator, nested
// arrays included (a TJ array needs one level).
const maxArrayItems = 1 << 16

// maxArrayDepth caps the nesting of arrays kept (a TJ array needs one
// level); deeper arrays are stepped over without recursion.
const maxArrayDepth = 8

// maxStringBytes caps the bytes kept of one string operand (literal or
// hexadecimal): the rest is read past, not kept. A shown string is a line
// of text, a CMap string a few bytes.
const maxStringBytes = 64 << 10

// maxNameBytes caps the bytes kept of a name or an operator word (PDF's own
// implementation limit for names is 127 bytes).
const maxNameBytes = 256

// operand is one operand of a content stream operator.
type operand struct {
	kind  operandKind
	num   float64
	str   []byte    // string bytes or name (without the slash)
	items []operand // array elements
}

type operandKind uint8

const (
	opNumber operandKind = iota + 1
	opString
	opName
	opArray
	opOther // dictionaries, booleans, null: present but unused
)

// contentLexer walks one content stream.
type contentLexer struct {
	b   []byte
	pos int
	// max caps the operands kept per operator; 0 means maxOperands.
	max int
	// items counts the array elements kept for the current operator.
	items int
}

// next returns the next operator with its operands, or ok false at the end.
// Operands that are not followed by an operator at the end are dropped.
func (l *contentLexer) next(stack []operand) (op string, operands []operand, ok bool) {
	operands = stack[:0]
	l.items = 0
	for {
		l.skipSpace()
		if l.pos >= len(l.b) {
			return "", nil, false
		}
		c := l.b[l.pos]
		switch {
		case c == '/':
			operands = l.push(operands, operand{kind: opName, str: l.name()})
		case c == '(':
			operands = l.push(operands, operand{kind: opString, str: l.literal()})
		case c == '<' && l.peek(1) == '<':
			l.skipDict()
			operands = l.push(operands, operand{kind: opOther})
		case c == '<':
			operands = l.push(operands, operand{kind: opString, str: l.hex()})
		case c == '[':
			l.pos++
			operands = l.push(operands, operand{kind: opArray, items: l.array()})
		case c == ']' || c == '>' || c == ')' || c == '{' || c == '}':
			l.pos++ // stray delimiter
		case c == '+' || c == '-' || c == '.' || (c >= '0' && c <= '9'):
			operands = l.push(operands, operand{kind: opNumber, num: l.number()})
		default:
			word := l.word()
			switch word {
			case "true", "false", "null":
				operands = l.push(operands, operand{kind: opOther})
				continue
			case "BI":
				l.skipInlineImage()
				operands = operands[:0]
				continue
			}
			return word, operands, true
		}
	}
}

// push appends o unless the stack is full.
func (l *contentLexer) push(stack []operand, o operand) []operand {
	limit := l.max
	if limit <= 0 {
		limit = maxOperands
	}
	if len(stack) >= limit {
		return stack
	}
	return append(stack, o)
}

func (l *contentLexer) peek(n int) byte {
	if l.pos+n < len(l.b) {
		return l.b[l.pos+n]
	}
	return 0
}

// skipSpace skips white space and comments.
func (l *contentLexer) skipSpace() {
	for l.pos < len(l.b) {
		c := l.b[l.pos]
		if isWhite(c) {
			l.pos++
			continue
		}
		if c == '%' {
			for l.pos < len(l.b) && l.b[l.pos] != '\n' && l.b[l.pos] != '\r' {
				l.pos++
			}
			continue
		}
		return
	}
}

// word reads a regular-character token (an operator or a keyword).
func (l *contentLexer) word() string {
	start := l.pos
	for l.pos < len(l.b) && !isWhite(l.b[l.pos]) && !isDelim(l.b[l.pos]) {
		l.pos++
	}
	if l.pos == start {
		l.pos++ // never stall on an unexpected byte
	}
	// A word longer than any operator is kept cut short: it names nothing.
	return string(l.b[start:min(l.pos, start+maxNameBytes)])
}

// name reads a name after its slash, resolving #xx escapes.
func (l *contentLexer) name() []byte {
	l.pos++
	start := l.pos
	for l.pos < len(l.b) && !isWhite(l.b[l.pos]) && !isDelim(l.b[l.pos]) {
		l.pos++
	}
	raw := l.b[start:min(l.pos, start+maxNameBytes)]
	if bytes.IndexByte(raw, '#') < 0 {
		return raw
	}
	out := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); i++ {
		if raw[i] == '#' && i+2 < len(raw) {
			if h, ok := hexByte(raw[i+1], raw[i+2]); ok {
				out = append(out, h)
				i += 2
				continue
			}
		}
		out = append(out, raw[i])
	}
	return out
}

// number reads a PDF number; malformed ones read as 0.
func (l *contentLexer) number() float64 {
	start := l.pos
	l.pos++
	for l.pos < len(l.b) {
		c := l.b[l.pos]
		if (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' {
			l.pos++
			continue
		}
		break
	}
	return parseNumber(l.b[start:l.pos])
}

// parseNumber parses an integer or real as PDF readers do: leading signs,
// at most one point, digits; anything else stops the number.
func parseNumber(b []byte) float64 {
	neg := false
	i := 0
	for i < len(b) && (b[i] == '+' || b[i] == '-') {
		neg = neg != (b[i] == '-')
		i++
	}
	v, frac, scale := 0.0, false, 1.0
	for ; i < len(b); i++ {
		c := b[i]
		switch {
		case c >= '0' && c <= '9':
			if frac {
				scale /= 10
				v += float64(c-'0') * scale
			} else {
				v = v*10 + float64(c-'0')
			}
		case c == '.' && !frac:
			frac = true
		default:
			i = len(b)
		}
	}
	if neg {
		return -v
	}
	return v
}

// literal reads a literal string with its escapes.
func (l *contentLexer) literal() []byte {
	l.pos++
	var out []byte
	depth := 1
	for l.pos < len(l.b) {
		c := l.b[l.pos]
		l.pos++
		switch c {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return out
			}
		case '\\':
			if l.pos >= len(l.b) {
				return out
			}
			e := l.b[l.pos]
			l.pos++
			switch e {
			case 'n':
				c = '\n'
			case 'r':
				c = '\r'
			case 't':
				c = '\t'
			case 'b':
				c = '\b'
			case 'f':
				c = '\f'
			case '\r':
				if l.pos < len(l.b) && l.b[l.pos] == '\n' {
					l.pos++
				}
				continue
			case '\n':
				continue
			default:
				if e >= '0' && e <= '7' {
					v := int(e - '0')
					for k := 0; k < 2 && l.pos < len(l.b) && l.b[l.pos] >= '0' && l.b[l.pos] <= '7'; k++ {
						v = v*8 + int(l.b[l.pos]-'0')
						l.pos++
					}
					c = byte(v)
				} else {
					c = e
				}
			}
		}
		if len(out) < maxStringBytes {
			out = append(out, c)
		}
	}
	return out
}

// hex reads a hexadecimal string; an odd final digit counts as followed by 0.
func (l *contentLexer) hex() []byte {
	l.pos++
	var out []byte
	var hi byte
	half := false
	for l.pos < len(l.b) {
		c := l.b[l.pos]
		l.pos++
		if c == '>' {
			break
		}
		v, ok := hexDigit(c)
		if !ok {
			continue
		}
		if half {
			if len(out) < maxStringBytes {
				out = append(out, hi<<4|v)
			}
		} else {
			hi = v
		}
		half = !half
	}
	if half && len(out) < maxStringBytes {
		out = append(out, hi<<4)
	}
	return out
}

// array reads array elements up to the closing bracket (the opening one
// already read), iteratively: nested arrays are kept down to maxArrayDepth
// levels, the outermost included; deeper ones stand as one opOther element
// and are stepped over with a counter, so four million "[" cost neither
// stack nor memory.
func (l *contentLexer) array() []operand {
	var open [maxArrayDepth][]operand
	depth := 0   // index in open of the innermost array kept
	skipped := 0 // arrays open below the kept ones
	// add appends o to the innermost array kept, within maxArrayItems.
	add := func(o operand) {
		if l.items < maxArrayItems {
			l.items++
			open[depth] = append(open[depth], o)
		}
	}
	// closeKept ends the innermost array kept, adding it to its parent.
	closeKept := func() {
		items := open[depth]
		open[depth] = nil
		depth--
		add(operand{kind: opArray, items: items})
	}
	for {
		l.skipSpace()
		if l.pos >= len(l.b) {
			break
		}
		c := l.b[l.pos]
		var o operand
		switch {
		case c == ']':
			l.pos++
			switch {
			case skipped > 0:
				skipped--
			case depth == 0:
				return open[0]
			default:
				closeKept()
			}
			continue
		case c == '[':
			l.pos++
			switch {
			case skipped > 0:
				skipped++
			case depth+1 >= maxArrayDepth:
				add(operand{kind: opOther})
				skipped = 1
			default:
				depth++
			}
			continue
		case c == '/':
			o = operand{kind: opName, str: l.name()}
		case c == '(':
			o = operand{kind: opString, str: l.literal()}
		case c == '<' && l.peek(1) == '<':
			l.skipDict()
			o = operand{kind: opOther}
		case c == '<':
			o = operand{kind: opString, str: l.hex()}
		case c == '+' || c == '-' || c == '.' || (c >= '0' && c <= '9'):
			o = operand{kind: opNumber, num: l.number()}
		default:
			if isDelim(c) {
				l.pos++
				continue
			}
			// An operator inside an array is malformed: end every open
			// array here and let the caller see the operator.
			for depth > 0 {
				closeKept()
			}
			return open[0]
		}
		if skipped == 0 {
			add(o)
		}
	}
	for depth > 0 {
		closeKept()
	}
	return open[0]
}

// skipDict steps over a dictionary, nested ones and strings included.
func (l *contentLexer) skipDict() {
	depth := 0
	for l.pos < len(l.b) {
		c := l.b[l.pos]
		switch {
		case c == '<' && l.peek(1) == '<':
			depth++
			l.pos += 2
		case c == '>' && l.peek(1) == '>':
			depth--
			l.pos += 2
			if depth <= 0 {
				return
			}
		case c == '(':
			l.literal()
		case c == '<':
			l.hex()
		default:
			l.pos++
		}
	}
}

// skipInlineImage steps from after BI over the image dictionary and data to
// after EI. The data ends at the first "EI" between white space.
func (l *contentLexer) skipInlineImage() {
	i := bytes.Index(l.b[l.pos:], []byte("ID"))
	if i < 0 {
		l.pos = len(l.b)
		return
	}
	l.pos = min(l.pos+i+3, len(l.b)) // "ID" and the one white-space byte after it
	for l.pos < len(l.b) {
		j := bytes.Index(l.b[l.pos:], []byte("EI"))
		if j < 0 {
			l.pos = len(l.b)
			return
		}
		at := l.pos + j
		before := at == 0 || isWhite(l.b[at-1])
		after := at+2 >= len(l.b) || isWhite(l.b[at+2]) || isDelim(l.b[at+2])
		l.pos = at + 2
		if before && after {
			return
		}
	}
}

func hexDigit(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

func hexByte(a, b byte) (byte, bool) {
	h, ok1 := hexDigit(a)
	l, ok2 := hexDigit(b)
	return h<<4 | l, ok1 && ok2
}

// isWhite reports whether c is PDF white space (ISO 32000-1, 7.2.2; as
// models/pdf's structure.go reads it).
func isWhite(c byte) bool {
	return c == 0 || c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == ' '
}

// isDelim reports whether c is a PDF delimiter.
func isDelim(c byte) bool {
	switch c {
	case '(', ')', '<', '>', '[', ']', '{', '}', '/', '%':
		return true
	}
	return false
}
