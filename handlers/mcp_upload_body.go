package handlers

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"unicode/utf8"
)

// An upload_document call carries a whole PDF as base64 text inside its
// JSON: a 50 MiB file is a 67 MB body, and decoding it as JSON — the body,
// the message's params, the tool's arguments, the string — held it six
// times over (about 300 MB for a 31 MiB file). So its body is not decoded
// whole: as it is read, the text of params.arguments.content_base64 is
// decoded as base64 straight into a temporary file, and the message goes on
// to the SDK with "" in its place; the tool then reads the file
// (docs/decisions.md, "MCP server", its bodies). Everything else of the
// message — the other arguments, the envelope — is copied as it is and
// checked by the SDK and the tool as for any call.

// mcpUpload is the file of an upload_document call, decoded from its body.
type mcpUpload struct {
	// file holds the decoded bytes (at most the upload limit of them).
	file *os.File
	// decoded is how many bytes the whole text decodes to, counted past the
	// limit too, so that a refusal can name the size.
	decoded int64
	// corrupt is the offset in the text of the first character that is not
	// base64, or -1.
	corrupt int64
	// empty says the text was "" (a required argument left empty).
	empty bool
}

// close removes the upload's file.
func (u *mcpUpload) close() {
	if u == nil || u.file == nil {
		return
	}
	_ = u.file.Close()
	_ = os.Remove(u.file.Name())
}

// maxJSONDepth bounds the nesting the upload's body scanner follows.
const maxJSONDepth = 64

// errBodyJSON stops the scan of a body that is not JSON the scanner can
// follow; the rest of the body is then passed on as it is, for the SDK to
// refuse.
var errBodyJSON = errors.New("mcp: not a JSON message the upload scanner follows")

// errUploadMessageTooLarge refuses an upload_document call whose message
// without the file's text passes its limit: a huge file name is no file.
var errUploadMessageTooLarge = errors.New("mcp: the upload's message without its file is too large")

// extractUpload copies the JSON message read from r to out, except the
// string value of params.arguments.content_base64, whose text it decodes
// into a new temporary file in dir (at most limit bytes written) and
// replaces by "" (when the key comes more than once, the last one counts,
// as for any JSON object). It returns nil when the message has no such
// string (the tool then refuses the argument). What it copies to out may
// be at most maxOut bytes (errUploadMessageTooLarge).
func extractUpload(r io.Reader, out *bytes.Buffer, dir string, limit, maxOut int64) (*mcpUpload, error) {
	s := &uploadScanner{r: bufio.NewReaderSize(r, 64<<10), out: out, dir: dir, limit: limit, maxOut: int(maxOut)}
	err := s.value(0, []string{"params", "arguments", "content_base64"})
	if err == nil {
		err = s.rest()
	}
	if errors.Is(err, errBodyJSON) {
		err = s.rest()
	}
	if err == nil && out.Len() > s.maxOut {
		err = errUploadMessageTooLarge
	}
	if err != nil {
		s.upload.close()
		return nil, err
	}
	return s.upload, nil
}

// uploadScanner walks one JSON value at a time, copying it to out.
type uploadScanner struct {
	r      *bufio.Reader
	out    *bytes.Buffer
	dir    string
	limit  int64
	maxOut int
	upload *mcpUpload
}

// rest copies what is left of the body as it is, at most maxOut bytes in all.
func (s *uploadScanner) rest() error {
	_, err := s.out.ReadFrom(io.LimitReader(s.r, int64(s.maxOut-s.out.Len()+1)))
	return err
}

// full reports whether out passed maxOut.
func (s *uploadScanner) full() error {
	if s.out.Len() > s.maxOut {
		return errUploadMessageTooLarge
	}
	return nil
}

// next reads the next byte that is not JSON white space, copying the white
// space.
func (s *uploadScanner) next() (byte, error) {
	for {
		c, err := s.r.ReadByte()
		if err != nil {
			return 0, err
		}
		switch c {
		case ' ', '\t', '\r', '\n':
			s.out.WriteByte(c)
			if err := s.full(); err != nil {
				return 0, err
			}
			continue
		}
		return c, nil
	}
}

// value copies one value; want is the path of keys still to follow to the
// upload's text (nil: none below here).
func (s *uploadScanner) value(depth int, want []string) error {
	if depth > maxJSONDepth {
		return errBodyJSON
	}
	c, err := s.next()
	if err != nil {
		return err
	}
	switch c {
	case '{':
		return s.object(depth, want)
	case '[':
		s.out.WriteByte(c)
		return s.array(depth)
	case '"':
		if len(want) == 0 && want != nil {
			return s.uploadText()
		}
		s.out.WriteByte(c)
		_, err := s.str(nil)
		return err
	}
	s.out.WriteByte(c)
	return s.scalar()
}

// object copies an object whose '{' was read.
func (s *uploadScanner) object(depth int, want []string) error {
	s.out.WriteByte('{')
	for first := true; ; first = false {
		c, err := s.next()
		if err != nil {
			return err
		}
		if c == '}' && first {
			s.out.WriteByte(c)
			return nil
		}
		if c != '"' {
			return errBodyJSON
		}
		s.out.WriteByte(c)
		var key []byte
		if key, err = s.str(make([]byte, 0, 32)); err != nil {
			return err
		}
		if c, err = s.next(); err != nil || c != ':' {
			return errors.Join(err, errBodyJSON)
		}
		s.out.WriteByte(c)
		var below []string
		if len(want) > 0 && string(key) == want[0] {
			below = want[1:]
		}
		if err := s.value(depth+1, below); err != nil {
			return err
		}
		if c, err = s.next(); err != nil {
			return err
		}
		s.out.WriteByte(c)
		switch c {
		case ',':
		case '}':
			return nil
		default:
			return errBodyJSON
		}
	}
}

// array copies an array whose '[' was read.
func (s *uploadScanner) array(depth int) error {
	c, err := s.next()
	if err != nil {
		return err
	}
	if c == ']' {
		s.out.WriteByte(c)
		return nil
	}
	if err := s.r.UnreadByte(); err != nil {
		return err
	}
	for {
		if err := s.value(depth+1, nil); err != nil {
			return err
		}
		if c, err = s.next(); err != nil {
			return err
		}
		s.out.WriteByte(c)
		switch c {
		case ',':
		case ']':
			return nil
		default:
			return errBodyJSON
		}
	}
}

// scalar copies the rest of a number, true, false or null.
func (s *uploadScanner) scalar() error {
	for {
		c, err := s.r.ReadByte()
		if err != nil {
			return err
		}
		switch c {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			return s.r.UnreadByte()
		}
		s.out.WriteByte(c)
		if err := s.full(); err != nil {
			return err
		}
	}
}

// str copies a string whose '"' was read, through its closing quote; when
// key is not nil, it also returns the string's text, escapes decoded (at
// most 256 bytes kept: a longer key is no key the scanner looks for).
func (s *uploadScanner) str(key []byte) ([]byte, error) {
	for {
		c, err := s.r.ReadByte()
		if err != nil {
			return nil, err
		}
		s.out.WriteByte(c)
		if err := s.full(); err != nil {
			return nil, err
		}
		switch c {
		case '"':
			return key, nil
		case '\\':
			r, raw, err := s.escape()
			if err != nil {
				return nil, err
			}
			s.out.Write(raw)
			if key != nil && len(key) < 256 {
				key = utf8.AppendRune(key, r)
			}
			continue
		}
		if key != nil && len(key) < 256 {
			key = append(key, c)
		}
	}
}

// uploadText decodes the upload's text (its '"' read) into a new file and
// writes "" in its place.
func (s *uploadScanner) uploadText() error {
	f, err := os.CreateTemp(s.dir, "markuproom-upload-mcp-*.pdf")
	if err != nil {
		return fmt.Errorf("mcp: create the upload's file: %w", err)
	}
	s.upload.close() // an earlier value of the same key
	s.upload = &mcpUpload{file: f, corrupt: -1}
	w := bufio.NewWriterSize(f, 64<<10)
	d := base64Stream{w: w, limit: s.limit, up: s.upload}
	s.upload.empty = true
	for {
		c, err := s.r.ReadByte()
		if err != nil {
			return err
		}
		if c == '"' {
			break
		}
		s.upload.empty = false
		if c == '\\' {
			r, _, err := s.escape()
			if err != nil {
				return err
			}
			if r >= utf8.RuneSelf {
				c = 0xff // not base64, whatever it is
			} else {
				c = byte(r)
			}
		}
		if err := d.char(c); err != nil {
			return err
		}
	}
	if err := d.end(); err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("mcp: write the upload's file: %w", err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	s.out.WriteString(`""`)
	return nil
}

// escape reads a string escape after its '\' and returns the character
// and the escape's bytes as written.
func (s *uploadScanner) escape() (rune, []byte, error) {
	e, err := s.r.ReadByte()
	if err != nil {
		return 0, nil, err
	}
	switch e {
	case 'n':
		return '\n', []byte{e}, nil
	case 'r':
		return '\r', []byte{e}, nil
	case 't':
		return '\t', []byte{e}, nil
	case 'b':
		return '\b', []byte{e}, nil
	case 'f':
		return '\f', []byte{e}, nil
	case 'u':
		raw := []byte{'u', 0, 0, 0, 0}
		if _, err := io.ReadFull(s.r, raw[1:]); err != nil {
			return 0, nil, err
		}
		var r rune
		for _, h := range raw[1:] {
			r <<= 4
			switch {
			case h >= '0' && h <= '9':
				r |= rune(h - '0')
			case h >= 'a' && h <= 'f':
				r |= rune(h-'a') + 10
			case h >= 'A' && h <= 'F':
				r |= rune(h-'A') + 10
			default:
				return 0, nil, errBodyJSON
			}
		}
		return r, raw, nil
	}
	return rune(e), []byte{e}, nil // \" \\ \/
}

// base64Stream decodes base64 text one character at a time as the tool
// used to decode the whole string: white space at either end and '='
// padding at its end ignored, line breaks skipped, no other white space or
// padding allowed (RawStdEncoding, not strict).
type base64Stream struct {
	w     *bufio.Writer
	limit int64
	up    *mcpUpload
	// started is set at the first character that is not white space.
	started bool
	// held are '=' and white space seen since the last other character:
	// padding and trailing space when the text ends there.
	held []byte
	// n counts the text's characters fed to the decoder (line breaks aside).
	n       int64
	group   uint32
	inGroup int
	written int64
}

// base64Value maps a character to its 6 bits, or 0xff.
var base64Value = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xff
	}
	for i, c := range "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/" {
		t[c] = byte(i)
	}
	return t
}()

func isBase64Space(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// char takes the next character of the text.
func (d *base64Stream) char(c byte) error {
	if !d.started {
		if isBase64Space(c) {
			return nil
		}
		d.started = true
	}
	if c == '=' || isBase64Space(c) {
		if len(d.held) < 1<<16 {
			d.held = append(d.held, c)
			return nil
		}
	}
	for _, h := range d.held {
		if err := d.decode(h); err != nil {
			return err
		}
	}
	d.held = d.held[:0]
	return d.decode(c)
}

// end ends the text: trailing white space, then padding, are dropped, and
// what the last group holds is written.
func (d *base64Stream) end() error {
	held := bytes.TrimRight(bytes.TrimRight(d.held, " \t\n\r\v\f"), "=")
	for _, h := range held {
		if err := d.decode(h); err != nil {
			return err
		}
	}
	switch d.inGroup {
	case 1:
		d.corrupt(d.n - 1)
	case 2:
		return d.emit(byte(d.group >> 4))
	case 3:
		if err := d.emit(byte(d.group >> 10)); err != nil {
			return err
		}
		return d.emit(byte(d.group >> 2))
	}
	return nil
}

// decode feeds one character to the decoder.
func (d *base64Stream) decode(c byte) error {
	if c == '\n' || c == '\r' {
		return nil
	}
	d.n++
	d.up.decoded = d.n * 6 / 8
	v := base64Value[c]
	if v == 0xff {
		d.corrupt(d.n - 1)
		return nil
	}
	if d.up.corrupt >= 0 {
		return nil // counted only: the tool refuses the text
	}
	d.group = d.group<<6 | uint32(v)
	if d.inGroup++; d.inGroup < 4 {
		return nil
	}
	g := d.group
	d.group, d.inGroup = 0, 0
	for _, b := range []byte{byte(g >> 16), byte(g >> 8), byte(g)} {
		if err := d.emit(b); err != nil {
			return err
		}
	}
	return nil
}

// corrupt records the first character that is not base64.
func (d *base64Stream) corrupt(at int64) {
	if d.up.corrupt < 0 {
		d.up.corrupt = at
	}
}

// emit writes one decoded byte, none past the limit.
func (d *base64Stream) emit(b byte) error {
	if d.written >= d.limit {
		return nil
	}
	d.written++
	return d.w.WriteByte(b)
}
