package handlers

import (
	"context"
	"errors"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/handlers/route"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/templates"
	"github.com/markuproom/markuproom/templates/admin"
	"github.com/markuproom/markuproom/web/i18n"
)

// AuditStore reads the audit trail (the console's page and the API's).
type AuditStore interface {
	ListAuditEvents(ctx context.Context, f models.AuditFilter, order models.AuditOrder, cursor int64, limit int) (*models.AuditPage, error)
	RecentAuditActions(ctx context.Context) ([]string, error)
}

// adminAudit shows the audit trail of every organization, newest first:
// GET /admin/audit?org=&actor=&action=&transaction=&from=&to=&cursor=
// (parseAuditQuery). Refused filters show the page with their messages
// (400), not an error page.
func (h *adminHandler) adminAudit(c *gin.Context) error {
	ctx := c.Request.Context()
	q, qerr := parseAuditQuery(c.Request.URL.Query())
	var invalid *models.ValidationError
	if qerr != nil && !errors.As(qerr, &invalid) {
		return qerr
	}
	v, err := h.auditView(ctx, c, q)
	if err != nil {
		return err
	}
	status := http.StatusOK
	if invalid != nil {
		status = http.StatusBadRequest
		v.Invalid = map[string]i18n.Words{}
		for _, fe := range invalid.Errors {
			if name := strings.TrimPrefix(fe.Pointer, "query:"); v.Invalid[name] == nil {
				v.Invalid[name] = auditFilterMessage(fe)
			}
		}
	} else if err := h.fillAuditRows(ctx, &v, q); err != nil {
		return err
	}
	render(c, status, admin.AuditPage(h.adminPage(c, i18n.Msg("admin.audit.title"), route.AdminAudit.Path()), v))
	return nil
}

// auditView is the page's frame: the filters as given, the organizations
// and actions they offer, the export and clear links.
func (h *adminHandler) auditView(ctx context.Context, c *gin.Context, q auditQuery) (admin.AuditView, error) {
	given := c.Request.URL.Query()
	v := admin.AuditView{
		Action: route.AdminAudit.Path(), ClearURL: route.AdminAudit.Path(),
		Org: given.Get("org"), Actor: given.Get("actor"), ActionFilter: given.Get("action"),
		Transaction: given.Get("transaction"), From: given.Get("from"), To: given.Get("to"),
		Filtered:  len(q.Params) > 0,
		ExportURL: withQuery(route.AdminAuditCSV.Path(), q.Params.Encode()),
	}
	orgs, err := h.transactions.OrganizationNames(ctx)
	if err != nil {
		return v, err
	}
	for _, o := range orgs {
		v.Organizations = append(v.Organizations, templates.OptionView{Value: strconv.FormatInt(o.ID, 10), Label: i18n.Plain(o.Name)})
	}
	v.Organizations = append(v.Organizations, templates.OptionView{Value: "0", Label: i18n.Msg("admin.audit.no_organization")})
	if v.Actions, err = h.audit.RecentAuditActions(ctx); err != nil {
		return v, err
	}
	return v, nil
}

// fillAuditRows reads the page q's cursor names and shapes its rows and
// its "Older" / "Newer" links, which keep the filters.
func (h *adminHandler) fillAuditRows(ctx context.Context, v *admin.AuditView, q auditQuery) error {
	events, older, newer, err := readAuditPage(ctx, h.audit, q.Filter, q.Cursor, models.AdminPageSize)
	if err != nil {
		return err
	}
	orgs := map[int64]i18n.Words{0: i18n.Plain("—")}
	for _, o := range v.Organizations {
		if id, ok := models.ParseRowID(o.Value); ok {
			orgs[id] = o.Label
		}
	}
	for i := range events {
		v.Rows = append(v.Rows, auditRow(&events[i], orgs))
	}
	pageURL := func(cur auditCursor) string {
		p := maps.Clone(q.Params)
		p.Set("cursor", cur.String())
		return withQuery(route.AdminAudit.Path(), p.Encode())
	}
	if older {
		v.OlderURL = pageURL(auditCursor{ID: events[len(events)-1].ID})
	}
	if newer {
		v.NewerURL = pageURL(auditCursor{ID: events[0].ID, Newer: true})
	}
	return nil
}

// readAuditPage reads one page of the events f selects, newest first, at
// cur, and tells whether there are older and newer events beyond it. A
// "newer" page that would not be full is the first page: the newest events.
func readAuditPage(ctx context.Context, st AuditStore, f models.AuditFilter, cur auditCursor, size int) (events []models.AuditEvent, older, newer bool, err error) {
	if cur.Newer {
		page, err := st.ListAuditEvents(ctx, f, models.AuditOldestFirst, cur.ID, size)
		if err != nil {
			return nil, false, false, err
		}
		if page.Next != 0 {
			events = slices.Clone(page.Events)
			slices.Reverse(events)
			return events, true, true, nil
		}
		cur = auditCursor{}
	}
	page, err := st.ListAuditEvents(ctx, f, models.AuditNewestFirst, cur.ID, size)
	if err != nil {
		return nil, false, false, err
	}
	return page.Events, page.Next != 0, cur.ID != 0 && len(page.Events) > 0, nil
}

// auditKindLabels are the catalog ids of the words of the actors' kinds.
var auditKindLabels = map[string]string{
	models.AuditActorAPIToken: "admin.audit.kind.api_token", models.AuditActorAdmin: "admin.audit.kind.admin",
	models.AuditActorRoom: "admin.audit.kind.room", models.AuditActorOperator: "admin.audit.kind.operator",
}

// auditRow is one event as the console's table shows it; a target inside
// a transaction links to the transaction's page.
func auditRow(e *models.AuditEvent, orgs map[int64]i18n.Words) admin.AuditRowView {
	r := admin.AuditRowView{
		ID: strconv.FormatInt(e.ID, 10), At: e.At,
		Organization: orgs[e.OrganizationID], ActorKind: e.ActorKind, ActorKindLabel: i18n.Plain(e.ActorKind),
		ActorName: e.ActorName, ActorID: e.ActorID, Via: e.Via, Address: e.ClientAddr, Action: e.Action, Summary: e.Summary,
		Unsealed: !e.Sealed(),
	}
	if r.Organization == nil {
		r.Organization = i18n.Plain("#" + strconv.FormatInt(e.OrganizationID, 10))
	}
	if id, ok := auditKindLabels[e.ActorKind]; ok {
		r.ActorKindLabel = i18n.Msg(id)
	}
	r.Target = auditTarget(e.TargetType, e.TargetID)
	switch {
	case e.TargetType == "template" && models.ValidServiceID(e.TargetID):
		r.TargetURL = route.AdminTemplate.Path(e.TargetID)
	case e.TargetType == "organization":
		if _, ok := models.ParseRowID(e.TargetID); ok {
			r.TargetURL = route.AdminOrganization.Path(e.TargetID)
		}
	case models.ValidServiceID(e.TransactionID):
		r.TargetURL = route.AdminTransaction.Path(e.TransactionID)
	}
	return r
}

// shortAuditID is a service id's end (the console's short id); other ids
// are short already.
func shortAuditID(id string) string {
	if models.ValidServiceID(id) {
		return shortID(id)
	}
	return id
}

// withQuery is path with the encoded query, if any.
func withQuery(path, query string) string {
	if query == "" {
		return path
	}
	return path + "?" + query
}

// auditFilterIDs are the catalog ids of the audit filters' messages, by
// parameter and problem code (parseAuditQuery's, which the CSV export
// answers in English).
var auditFilterIDs = map[string]string{
	"query:org invalid_type":       "admin.audit.error.org",
	"query:actor too_long":         "admin.audit.error.actor_too_long",
	"query:action invalid_action":  "admin.audit.error.action",
	"query:transaction invalid_id": "admin.audit.error.transaction",
	"query:from invalid_time":      "admin.audit.error.from",
	"query:to invalid_time":        "admin.audit.error.to",
	"query:to empty_range":         "admin.audit.error.empty_range",
	"query:cursor invalid_cursor":  "admin.audit.error.cursor",
}

// auditFilterMessage is a refused filter's message under its field (else
// the problem's own message).
func auditFilterMessage(fe models.FieldError) i18n.Words {
	id, ok := auditFilterIDs[fe.Pointer+" "+fe.Code]
	if !ok {
		return messageWords(fe.Message)
	}
	return i18n.Msg(id, "actor_max", maxAuditActorFilter, "action_max", maxAuditActionFilter)
}
