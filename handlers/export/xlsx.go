package export

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/xuri/excelize/v2"
)

// MaxXLSXRows is the most rows after the header a sheet holds (a
// spreadsheet's limit is 1,048,576 rows in all).
const MaxXLSXRows = excelize.TotalRows - 1

// ErrTooManyRows is returned by XLSX.Write past MaxXLSXRows.
var ErrTooManyRows = errors.New("export: more rows than a spreadsheet holds")

// Column is one column of an export: its heading and its width in a sheet,
// in characters (0: the spreadsheet's default).
type Column struct {
	Title string
	Width float64
}

// XLSX writes one sheet of a workbook with excelize's streaming writer:
// rows go to a buffer that spills to a temporary file past 16 MiB, so the
// rows written are not held in memory. The header row is bold and stays in
// view (a frozen pane) with a filter on every column; text cells are
// neutralised as Cell does and written as inline strings, never as
// formulas; a time is a date cell (UTC), an integer a number.
type XLSX struct {
	f        *excelize.File
	sw       *excelize.StreamWriter
	columns  int
	rows     int
	max      int
	date     int
	rowCells []any
}

// NewXLSX starts a workbook whose one sheet is named sheet, with the
// columns' headings as its first row.
func NewXLSX(sheet string, columns []Column) (*XLSX, error) {
	f := excelize.NewFile()
	x := &XLSX{f: f, columns: len(columns), max: MaxXLSXRows}
	if err := x.start(sheet, columns); err != nil {
		_ = f.Close()
		return nil, err
	}
	return x, nil
}

// start names the sheet, makes the styles and writes the header row.
func (x *XLSX) start(sheet string, columns []Column) error {
	if err := x.f.SetSheetName(x.f.GetSheetName(0), sheet); err != nil {
		return err
	}
	sw, err := x.f.NewStreamWriter(sheet)
	if err != nil {
		return err
	}
	x.sw = sw
	bold, err := x.f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
	if err != nil {
		return err
	}
	dateFormat := "yyyy-mm-dd hh:mm:ss"
	if x.date, err = x.f.NewStyle(&excelize.Style{CustomNumFmt: &dateFormat}); err != nil {
		return err
	}
	for i, c := range columns {
		if c.Width > 0 {
			if err := sw.SetColWidth(i+1, i+1, c.Width); err != nil {
				return err
			}
		}
	}
	if err := sw.SetPanes(&excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft"}); err != nil {
		return err
	}
	header := make([]any, len(columns))
	for i, c := range columns {
		header[i] = excelize.Cell{StyleID: bold, Value: Cell(c.Title)}
	}
	return sw.SetRow("A1", header)
}

// Write writes one row: a string (neutralised), a time.Time (a date cell,
// in UTC, to the second as the CSV; the zero time an empty cell), an int or int64, or nil (an empty
// cell).
func (x *XLSX) Write(values ...any) error {
	if x.rows >= x.max {
		return ErrTooManyRows
	}
	x.rows++
	x.rowCells = x.rowCells[:0]
	for _, v := range values {
		switch v := v.(type) {
		case string:
			x.rowCells = append(x.rowCells, Cell(v))
		case time.Time:
			if v.IsZero() {
				x.rowCells = append(x.rowCells, nil)
			} else {
				x.rowCells = append(x.rowCells, excelize.Cell{StyleID: x.date, Value: v.UTC().Truncate(time.Second)})
			}
		case int, int64:
			x.rowCells = append(x.rowCells, v)
		case nil:
			x.rowCells = append(x.rowCells, nil)
		default:
			return fmt.Errorf("export: a cell of type %T", v)
		}
	}
	cell, err := excelize.CoordinatesToCellName(1, x.rows+1)
	if err != nil {
		return err
	}
	return x.sw.SetRow(cell, x.rowCells)
}

// Rows is how many rows were written after the header.
func (x *XLSX) Rows() int { return x.rows }

// WriteTo ends the sheet (a filter over every column when it has rows) and
// writes the workbook to w.
func (x *XLSX) WriteTo(w io.Writer) (int64, error) {
	if x.rows > 0 {
		last, err := excelize.CoordinatesToCellName(x.columns, x.rows+1)
		if err != nil {
			return 0, err
		}
		if err := x.sw.AddTable(&excelize.Table{Range: "A1:" + last, Name: "Export", StyleName: "TableStyleLight1"}); err != nil {
			return 0, err
		}
	}
	if err := x.sw.Flush(); err != nil {
		return 0, err
	}
	return x.f.WriteTo(w)
}

// Close removes the temporary files; call it once done, written or not.
func (x *XLSX) Close() error { return x.f.Close() }
