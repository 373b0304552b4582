package handlers

import (
	"net/http"
	"net/url"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/handlers/route"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/templates"
	"github.com/markuproom/markuproom/templates/admin"
	"github.com/markuproom/markuproom/web/i18n"
)

// adminTransactions lists every organization's transactions: GET
// /admin/transactions?org=&status=&q=&after=|before=. The URL holds the
// filters, so links, reloads and the back button show the same table; htmx
// swaps just the table (the response is the same page either way).
func (h *adminHandler) adminTransactions(c *gin.Context) error {
	f, err := transactionFilterFrom(c)
	if err != nil {
		return err
	}
	page, err := h.transactions.AdminListTransactions(c.Request.Context(), f)
	if err != nil {
		return err
	}
	orgs, err := h.transactions.OrganizationNames(c.Request.Context())
	if err != nil {
		return err
	}
	v := admin.TransactionsView{
		Action:         route.AdminTransactions.Path(),
		OrganizationID: c.Query("org"), Status: f.Status, Search: f.Search,
		Filtered: f.OrganizationID != 0 || f.Status != "" || f.Search != "",
	}
	for _, o := range orgs {
		v.Organizations = append(v.Organizations, templates.OptionView{Value: strconv.FormatInt(o.ID, 10), Label: i18n.Plain(o.Name)})
	}
	for _, s := range models.TransactionStatuses() {
		v.Statuses = append(v.Statuses, templates.OptionView{Value: s, Label: transactionStatusLabel(s)})
	}
	v.Now = h.clock.Now()
	for _, r := range page.Rows {
		v.Rows = append(v.Rows, transactionRow(r))
	}
	// The table's links keep its filters; an empty key is an export's, which
	// has every page.
	filtered := func(base route.Route, key, id string) string {
		q := url.Values{}
		for k, val := range map[string]string{"org": v.OrganizationID, "status": f.Status, "q": f.Search, key: id} {
			if k != "" && val != "" {
				q.Set(k, val)
			}
		}
		return withQuery(base.Path(), q.Encode())
	}
	if page.HasNext {
		v.NextURL = filtered(route.AdminTransactions, "after", page.LastID)
	}
	if page.HasPrev {
		v.PrevURL = filtered(route.AdminTransactions, "before", page.FirstID)
	}
	v.ExportCSVURL = filtered(route.AdminTransactionsCSV, "", "")
	v.ExportXLSXURL = filtered(route.AdminTransactionsXLSX, "", "")
	addVary(c, "HX-Request")
	render(c, http.StatusOK, admin.TransactionsPage(h.adminPage(c, i18n.Msg("admin.transactions.title"), route.AdminTransactions.Path()), v))
	return nil
}

// transactionFilterFrom reads the transactions table's filters from the
// query (org, status, q, after, before); the page and its exports read the
// same parameters.
func transactionFilterFrom(c *gin.Context) (models.AdminTransactionFilter, error) {
	f := models.AdminTransactionFilter{Status: c.Query("status"), Search: c.Query("q"), After: c.Query("after"), Before: c.Query("before")}
	if org := c.Query("org"); org != "" {
		id, err := strconv.ParseInt(org, 10, 64)
		if err != nil || id <= 0 {
			return f, models.Invalid("query:org", "invalid_type", "problem.list.org")
		}
		f.OrganizationID = id
	}
	return f, nil
}

// transactionRow is one transaction as the console's list shows it.
func transactionRow(r models.AdminTransactionRow) admin.TransactionRowView {
	return admin.TransactionRowView{
		ID: r.ID, ShortID: shortID(r.ID), URL: route.AdminTransaction.Path(r.ID), Organization: r.OrganizationName,
		Title: r.Title, MoreDocuments: max(r.DocumentCount-1, 0), ReferenceID: r.ReferenceID, Sender: r.SenderName,
		CreatedBy: r.CreatedBy, Status: r.Status, StatusLabel: transactionStatusLabel(r.Status), StatusSince: r.StatusSince,
		Participants: r.Participants, Documents: r.DocumentCount, Updated: r.UpdatedAt,
	}
}

// transactionStatusLabel is a transaction's status in words (its code when
// this version does not know it).
func transactionStatusLabel(status string) i18n.Words {
	switch status {
	case models.StatusDraft:
		return i18n.Msg("admin.transactions.status.draft")
	case models.StatusESignPending:
		return i18n.Msg("admin.transactions.status.esign_pending")
	}
	return i18n.Plain(status)
}
