// Package export writes console lists as files a spreadsheet opens (CSV,
// XLSX) without letting a cell run as a formula.
package export

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// Cell neutralises a value a spreadsheet would read as a formula: one that
// begins with =, +, -, @ (or a tab or carriage return, which some
// spreadsheets skip before reading one) gets a leading apostrophe, which
// spreadsheets show as text and do not evaluate (CSV injection).
func Cell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// CSV writes rows whose every cell passes through Cell.
type CSV struct {
	w   *csv.Writer
	row []string
}

// NewCSV writes CSV (RFC 4180, CRLF line ends) to w.
func NewCSV(w io.Writer) *CSV {
	c := csv.NewWriter(w)
	c.UseCRLF = true
	return &CSV{w: c}
}

// Write writes one row.
func (c *CSV) Write(cells ...string) error {
	c.row = c.row[:0]
	for _, s := range cells {
		c.row = append(c.row, Cell(s))
	}
	return c.w.Write(c.row)
}

// Flush writes what is buffered and reports the first error of any write.
func (c *CSV) Flush() error {
	c.w.Flush()
	return c.w.Error()
}

// Text is a value as a CSV cell holds it: a string as it is, a time in UTC
// as RFC 3339 (the zero time empty), an integer in decimal.
func Text(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case time.Time:
		if v.IsZero() {
			return ""
		}
		return v.UTC().Format(time.RFC3339)
	case int:
		return strconv.Itoa(v)
	case int64:
		return strconv.FormatInt(v, 10)
	case nil:
		return ""
	}
	return fmt.Sprint(v)
}

// WriteValues writes one row of values, each as Text makes it.
func (c *CSV) WriteValues(values ...any) error {
	c.row = c.row[:0]
	for _, v := range values {
		c.row = append(c.row, Cell(Text(v)))
	}
	return c.w.Write(c.row)
}
