package handlers

import (
	"context"
	"errors"
	"mime"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/handlers/export"
	"github.com/markuproom/markuproom/models"
)

// The console's exports write its lists as files, with the filters of the
// page they export, read from the database page after page (keyset paging)
// and streamed: one page is in memory at a time (docs/decisions.md,
// "Exports").

// xlsxType is the media type of an XLSX workbook.
const xlsxType = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

// exportPages reads an export's rows a page at a time; an empty page ends it.
type exportPages func(ctx context.Context) ([][]any, error)

// adminTransactionsCSV is GET /admin/transactions.csv: the filtered
// transactions table (org, status, q) as CSV, newest first.
func (h *adminHandler) adminTransactionsCSV(c *gin.Context) error {
	f, err := transactionFilterFrom(c)
	if err != nil {
		return err
	}
	return streamCSV(c, h.exportName("transactions", "csv"), transactionColumns(), h.transactionPages(f))
}

// adminTransactionsXLSX is GET /admin/transactions.xlsx: the same rows as
// the CSV, as a workbook written by excelize's streaming writer.
func (h *adminHandler) adminTransactionsXLSX(c *gin.Context) error {
	f, err := transactionFilterFrom(c)
	if err != nil {
		return err
	}
	x, err := export.NewXLSX("Transactions", transactionColumns())
	if err != nil {
		return err
	}
	defer func() { _ = x.Close() }()
	next := h.transactionPages(f)
	for {
		page, err := next(c.Request.Context())
		if err != nil {
			return err
		}
		if len(page) == 0 {
			break
		}
		for _, row := range page {
			if err := x.Write(row...); errors.Is(err, export.ErrTooManyRows) {
				return models.Unprocessable("query", "too_many_rows", "problem.export.too_many_rows", "max", export.MaxXLSXRows)
			} else if err != nil {
				return err
			}
		}
	}
	setDownload(c, xlsxType, h.exportName("transactions", "xlsx"))
	c.Status(http.StatusOK)
	if _, err := x.WriteTo(c.Writer); err != nil {
		abortExport(c, err)
	}
	return nil
}

// adminAuditCSV is GET /admin/audit.csv: the audit trail with the audit
// page's filters (org, actor, action, transaction, from, to), newest first.
func (h *adminHandler) adminAuditCSV(c *gin.Context) error {
	q, err := parseAuditQuery(c.Request.URL.Query())
	if err != nil {
		return err
	}
	f := q.Filter
	orgs, err := h.exports.OrganizationNames(c.Request.Context())
	if err != nil {
		return err
	}
	names := make(map[int64]string, len(orgs))
	for _, o := range orgs {
		names[o.ID] = o.Name
	}
	var cursor int64
	done := false
	next := func(ctx context.Context) ([][]any, error) {
		if done {
			return nil, nil
		}
		page, err := h.exports.ListAuditEvents(ctx, f, models.AuditNewestFirst, cursor, models.MaxAuditPage)
		if err != nil {
			return nil, err
		}
		cursor, done = page.Next, page.Next == 0
		rows := make([][]any, len(page.Events))
		for i := range page.Events {
			rows[i] = auditCells(&page.Events[i], names)
		}
		return rows, nil
	}
	return streamCSV(c, h.exportName("audit", "csv"), auditColumns(), next)
}

// transactionPages reads the transactions f selects, a page of
// models.ExportPageSize at a time, each row as transactionCells makes it.
func (h *adminHandler) transactionPages(f models.AdminTransactionFilter) exportPages {
	after := ""
	done := false
	return func(ctx context.Context) ([][]any, error) {
		if done {
			return nil, nil
		}
		rows, err := h.exports.AdminExportTransactions(ctx, f, after, models.ExportPageSize)
		if err != nil {
			return nil, err
		}
		done = len(rows) < models.ExportPageSize
		out := make([][]any, len(rows))
		for i := range rows {
			out[i] = transactionCells(&rows[i])
			after = rows[i].ID
		}
		return out, nil
	}
}

// streamCSV answers with a CSV file: it reads the first page before the
// answer starts, so a refused filter or a failing database is an ordinary
// error answer; then it writes and flushes a page at a time.
func streamCSV(c *gin.Context, filename string, columns []export.Column, next exportPages) error {
	ctx := c.Request.Context()
	page, err := next(ctx)
	if err != nil {
		return err
	}
	setDownload(c, "text/csv; charset=utf-8", filename)
	c.Status(http.StatusOK)
	w := export.NewCSV(c.Writer)
	header := make([]string, len(columns))
	for i, col := range columns {
		header[i] = col.Title
	}
	if err := w.Write(header...); err != nil {
		abortExport(c, err)
	}
	for len(page) > 0 {
		for _, row := range page {
			if err := w.WriteValues(row...); err != nil {
				abortExport(c, err)
			}
		}
		if err := w.Flush(); err != nil {
			abortExport(c, err)
		}
		c.Writer.Flush()
		if page, err = next(ctx); err != nil {
			abortExport(c, err)
		}
	}
	if err := w.Flush(); err != nil {
		abortExport(c, err)
	}
	return nil
}

// setDownload sets the headers of a file to save: its type, an attachment
// with its name, and no caching (it holds every organization's data).
func setDownload(c *gin.Context, contentType, filename string) {
	c.Header("Content-Type", contentType)
	c.Header("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": filename}))
	c.Header("Cache-Control", "no-store")
}

// abortExport ends an export that failed after its answer began: the status
// is sent, so the connection is cut (http.ErrAbortHandler) and the client
// sees a broken download rather than a file that looks whole.
func abortExport(c *gin.Context, err error) {
	if clientClosed(c, err) || errors.Is(c.Request.Context().Err(), context.Canceled) {
		loggerFrom(c).InfoContext(c.Request.Context(), "client closed the export", "error", err.Error())
	} else {
		loggerFrom(c).ErrorContext(c.Request.Context(), "export failed after it began", "error", err.Error())
	}
	panic(http.ErrAbortHandler)
}

// exportName is an export's file name, dated today (UTC):
// markuproom-transactions-2026-11-26.csv.
func (h *adminHandler) exportName(what, ext string) string {
	return "markuproom-" + what + "-" + h.clock.Now().UTC().Format("2006-01-02") + "." + ext
}

// transactionColumns are the transactions exports' columns, in the order
// transactionCells fills them.
func transactionColumns() []export.Column {
	return []export.Column{
		{Title: "Transaction ID", Width: 38}, {Title: "Reference ID", Width: 20},
		{Title: "Organization ID", Width: 16}, {Title: "Organization", Width: 20},
		{Title: "Status", Width: 14}, {Title: "Status since (UTC)", Width: 20},
		{Title: "Documents", Width: 10}, {Title: "Document titles", Width: 40},
		{Title: "Sender", Width: 20}, {Title: "Created by", Width: 20},
		{Title: "Participants", Width: 12}, {Title: "Participant names", Width: 40}, {Title: "Participant e-mails", Width: 40},
		{Title: "Markup Rooms", Width: 38},
		{Title: "Created (UTC)", Width: 20}, {Title: "Last change (UTC)", Width: 20},
	}
}

// transactionCells is one transaction's row of the exports. Its lists come
// joined with models.ExportListSeparator in position order (names and
// e-mails pair up).
func transactionCells(r *models.AdminExportRow) []any {
	return []any{
		r.ID, r.ReferenceID,
		r.OrganizationID, r.OrganizationName,
		r.Status, r.StatusSince,
		r.DocumentCount, r.DocumentTitles,
		r.SenderName, r.CreatedBy,
		r.ParticipantCount, r.ParticipantNames, r.ParticipantEmails,
		r.RoomIDs,
		r.CreatedAt, r.UpdatedAt,
	}
}

// auditColumns are the audit export's columns, in the order auditCells
// fills them.
func auditColumns() []export.Column {
	return []export.Column{
		{Title: "Time (UTC)"}, {Title: "Organization ID"}, {Title: "Organization"},
		{Title: "Actor kind"}, {Title: "Actor ID"}, {Title: "Actor name"}, {Title: "Via"}, {Title: "Address"},
		{Title: "Action"}, {Title: "Target type"}, {Title: "Target ID"}, {Title: "Transaction ID"},
		{Title: "Summary"}, {Title: "Seq"}, {Title: "Hash"},
	}
}

// auditCells is one audit event's row of the export; the time keeps the
// microseconds its hash covers.
func auditCells(e *models.AuditEvent, orgs map[int64]string) []any {
	var orgID any
	if e.OrganizationID != 0 {
		orgID = e.OrganizationID
	}
	var seq any // empty while the event is not sealed yet (docs/decisions.md, "Audit sealing")
	if e.Sealed() {
		seq = e.Seq
	}
	return []any{
		e.At.UTC().Format("2006-01-02T15:04:05.000000Z07:00"), orgID, orgs[e.OrganizationID],
		e.ActorKind, e.ActorID, e.ActorName, e.Via, e.ClientAddr,
		e.Action, e.TargetType, e.TargetID, e.TransactionID,
		e.Summary, seq, e.Hash,
	}
}
