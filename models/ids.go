package models

import (
	"encoding/base64"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

func formatInt(n int64) string { return strconv.FormatInt(n, 10) }

// The shapes of the ids that appear in URLs. A value of another shape names
// nothing that can exist, so callers answer 404 (or 400 for a cursor)
// without asking the database, and the database never sees bytes it cannot
// hold (PostgreSQL refuses NUL and invalid UTF-8 with an error).

// ValidServiceID tells whether s has the shape of an id this service makes:
// a UUID in its canonical lowercase text form (transactions, documents,
// Markup Rooms, webhook endpoints, outgoing messages).
func ValidServiceID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
				return false
			}
		}
	}
	return true
}

// ValidCallerID tells whether s can be an id a caller chose (a participant,
// a tag, a transaction's document): text of 1 to MaxShortTextLength
// characters, valid UTF-8, without NUL.
func ValidCallerID(s string) bool {
	return s != "" && utf8.ValidString(s) && strings.IndexByte(s, 0) < 0 && utf8.RuneCountInString(s) <= MaxShortTextLength
}

// ParseRowID reads a positive database row id (organizations, users, API
// tokens, activity entries) written in plain decimal.
func ParseRowID(s string) (int64, bool) {
	if s == "" || len(s) > 19 || s[0] == '0' || strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' }) >= 0 {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		return 0, false
	}
	return n, true
}

// ParseIndex reads a position or page number: a decimal from 0 to
// math.MaxInt32 (the range of the integer columns that hold them).
func ParseIndex(s string) (int, bool) {
	if s == "" || len(s) > 10 || len(s) > 1 && s[0] == '0' || strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' }) >= 0 {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n > math.MaxInt32 {
		return 0, false
	}
	return int(n), true
}

// encodeCursor makes the cursor of a list page that ends at id.
func encodeCursor(id string) string { return base64.RawURLEncoding.EncodeToString([]byte(id)) }

// ParseCursor reads a list cursor this service issued: the unpadded
// base64url form of a service id, nothing else (any other text, padding or
// a different encoding of the same bytes is refused).
func ParseCursor(cursor string) (string, bool) {
	b, err := base64.RawURLEncoding.Strict().DecodeString(cursor)
	if err != nil || !ValidServiceID(string(b)) || encodeCursor(string(b)) != cursor {
		return "", false
	}
	return string(b), true
}
