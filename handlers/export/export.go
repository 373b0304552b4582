// Package export writes console lists as files a spreadsheet opens (CSV,
// XLSX) without letting a cell run as a formula.
package export

import (
	"encoding/csv"
	"io"
	"strings"
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
