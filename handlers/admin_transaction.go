package handlers

import (
	"net/http"
	"net/url"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/handlers/route"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/templates/admin"
	"github.com/markuproom/markuproom/web/i18n"
)

// adminTransaction shows one transaction of any organization: GET /admin/transactions/:id.
func (h *adminHandler) adminTransaction(c *gin.Context) error {
	at, err := h.transactions.AdminGetTransaction(c.Request.Context(), c.Param("id"))
	if err != nil {
		return err
	}
	t := at.Transaction
	on := func(b *bool) bool { return b != nil && *b }
	v := admin.TransactionView{
		BackURL:  route.AdminTransactions.Path(),
		AuditURL: route.AdminAudit.Path() + "?" + url.Values{"transaction": {t.ID}}.Encode(),
		ID:       t.ID, ShortID: shortID(t.ID), Title: i18n.Msg("admin.list.no_documents"), Organization: at.Organization.Name,
		ReferenceID: at.CallerReference, Status: t.Status, StatusLabel: transactionStatusLabel(t.Status), Version: t.Version,
		Created: t.CreatedAt, Updated: t.UpdatedAt, SigningOrder: on(t.SigningOrder),
		Notify: on(t.NotifyEmail), Subject: deref(t.InviteEmailSubject),
		Viewer: viewerView(h.assets, t, at.Uploads, func(pos int) string {
			return route.AdminDocumentContent.Path(t.ID, strconv.Itoa(pos)) + "?v=" + url.QueryEscape(t.Documents[pos].DocumentID)
		}, false),
	}
	for i := range t.Participants {
		p := &t.Participants[i]
		pv := admin.ParticipantView{ID: p.ParticipantID, Name: p.FullName(), Email: p.Email, Auth: authLabel(p.AuthenticationType)}
		if p.Order != nil {
			pv.Order = strconv.Itoa(*p.Order)
		}
		if p.KBARequired != nil && *p.KBARequired {
			pv.Checks = append(pv.Checks, i18n.Msg("admin.transaction.check.kba"))
		}
		if p.CredAnalysisRequired != nil && *p.CredAnalysisRequired {
			pv.Checks = append(pv.Checks, i18n.Msg("admin.transaction.check.credential_analysis"))
		}
		v.Participants = append(v.Participants, pv)
	}
	if len(t.Documents) > 0 {
		v.Title, v.MoreDocuments = i18n.Plain(t.Documents[0].Title), len(t.Documents)-1
	}
	for _, d := range t.Documents {
		v.Documents = append(v.Documents, admin.DocumentView{Title: d.Title, Pages: d.Pages, Tags: len(d.Tags),
			XFDFURL: route.AdminDocumentXFDF.Path(t.ID, strconv.Itoa(d.Position))})
	}
	for i := len(at.Events) - 1; i >= 0; i-- { // newest first
		e := at.Events[i]
		ev := admin.EventView{When: e.CreatedAt, Words: historyWords(e), Actor: historyActor(&e)}
		v.History = append(v.History, ev)
	}
	msgs, err := h.outbox.ListMessages(c.Request.Context(), models.MessageFilter{TransactionID: t.ID, Limit: models.AdminPageSize})
	if err != nil {
		return err
	}
	now := h.clock.Now()
	for i := range msgs {
		row := messageRow(&msgs[i], at.Organization.Name, now)
		row.TransactionURL = "" // this page
		v.Messages = append(v.Messages, row)
	}
	v.CSRFToken = csrfToken(c)
	p := h.adminPage(c, v.Title, route.AdminTransactions.Path())
	useViewerAssets(&p)
	render(c, http.StatusOK, admin.TransactionPage(p, v))
	return nil
}

// adminDocument finds a document of a transaction by position, for its content and XFDF.
func (h *adminHandler) adminDocument(c *gin.Context) (*models.AdminTransaction, *models.TransactionDocument, error) {
	at, err := h.transactions.AdminGetTransaction(c.Request.Context(), c.Param("id"))
	if err != nil {
		return nil, nil, err
	}
	pos, err := strconv.Atoi(c.Param("position"))
	if err != nil || pos < 0 || pos >= len(at.Transaction.Documents) {
		return nil, nil, models.ErrNotFound
	}
	return at, &at.Transaction.Documents[pos], nil
}

// adminDocumentContent serves a transaction document's PDF to the console's viewer.
func (h *adminHandler) adminDocumentContent(c *gin.Context) error {
	at, d, err := h.adminDocument(c)
	if err != nil {
		return err
	}
	doc, err := h.documents.GetDocument(c.Request.Context(), at.Transaction.OrganizationID, d.DocumentID)
	if err != nil {
		return err
	}
	return servePDF(c, h.documents, doc, "private, no-cache")
}

// adminDocumentXFDF downloads a transaction document's XFDF.
func (h *adminHandler) adminDocumentXFDF(c *gin.Context) error {
	_, d, err := h.adminDocument(c)
	if err != nil {
		return err
	}
	c.Header("Cache-Control", "no-store")
	c.Header("Content-Disposition", `attachment; filename="`+sanitizeHeaderValue(d.Title)+`.xfdf"`)
	c.Data(http.StatusOK, "application/vnd.adobe.xfdf", []byte(d.XFDF))
	return nil
}
