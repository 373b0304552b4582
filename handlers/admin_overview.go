package handlers

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/handlers/route"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/templates"
	"github.com/markuproom/markuproom/templates/admin"
	"github.com/markuproom/markuproom/web/i18n"
)

// OverviewStore reads the console's overview figures (metric_rollups).
type OverviewStore interface {
	Overview(ctx context.Context, f models.OverviewFilter) (*models.Overview, error)
}

// adminOverview is the console's home: GET /admin?org=ID, the charts of
// the last 30 days and 48 hours, for every organization or one.
func (h *adminHandler) adminOverview(c *gin.Context) error {
	var f models.OverviewFilter
	if org := c.Query("org"); org != "" {
		id, err := strconv.ParseInt(org, 10, 64)
		if err != nil || id <= 0 {
			return models.Invalid("query:org", "invalid_type", "problem.list.org")
		}
		f.OrganizationID = id
	}
	ctx := c.Request.Context()
	orgs, err := h.transactions.OrganizationNames(ctx)
	if err != nil {
		return err
	}
	v := admin.OverviewView{Action: route.Admin.Path(), OrganizationID: c.Query("org"), Scope: i18n.Msg("admin.list.all_organizations")}
	found := f.OrganizationID == 0
	for _, o := range orgs {
		v.Organizations = append(v.Organizations, templates.OptionView{Value: strconv.FormatInt(o.ID, 10), Label: i18n.Plain(o.Name)})
		if o.ID == f.OrganizationID {
			v.Scope, found = i18n.Plain(o.Name), true
		}
	}
	if !found {
		return errStatus(http.StatusNotFound, "admin.overview.no_such_organization", "id", strconv.FormatInt(f.OrganizationID, 10))
	}
	o, err := h.overview.Overview(ctx, f)
	if err != nil {
		return err
	}
	v.Charts = overviewCharts(o)
	render(c, http.StatusOK, admin.OverviewPage(h.adminPage(c, i18n.Msg("admin.nav.overview"), route.Admin.Path()), v))
	return nil
}

// overviewCharts shapes the overview's figures as its five charts, as
// data the view words: each chart's catalog ids (title, description,
// empty state, then one name per series) and its metrics.
func overviewCharts(o *models.Overview) []admin.OverviewChart {
	daily := func(id, title, desc, empty string, names []string, metrics ...string) admin.OverviewChart {
		return admin.OverviewChart{ID: id, TitleID: title, DescriptionID: desc, EmptyID: empty, Kind: admin.ChartBars,
			Buckets: o.Days, Series: countSeries(names, o.Daily, metrics)}
	}
	hourly := func(id, title, desc, empty string, names []string, metrics ...string) admin.OverviewChart {
		return admin.OverviewChart{ID: id, TitleID: title, DescriptionID: desc, EmptyID: empty, Kind: admin.ChartBars,
			Buckets: o.Hours, Hourly: true, Series: countSeries(names, o.Hourly, metrics)}
	}
	return []admin.OverviewChart{
		daily("chart-transactions", "admin.overview.transactions", "admin.overview.transactions.description",
			"admin.overview.transactions.empty", []string{"admin.overview.transactions.created", "admin.overview.transactions.sent"},
			models.MetricTransactionsCreated, models.MetricTransactionsSent),
		daily("chart-rooms", "admin.overview.rooms", "admin.overview.rooms.description",
			"admin.overview.rooms.empty", []string{"admin.overview.rooms.opened", "admin.overview.rooms.completed", "admin.overview.rooms.expired"},
			models.MetricRoomsOpened, models.MetricRoomsCompleted, models.MetricRoomsExpired),
		hourly("chart-outbox", "admin.overview.outbox", "admin.overview.outbox.description",
			"admin.overview.outbox.empty", []string{"admin.overview.outbox.delivered", "admin.overview.outbox.retrying", "admin.overview.outbox.dead"},
			models.MetricOutboxDelivered, models.MetricOutboxRetrying, models.MetricOutboxDead),
		hourly("chart-api", "admin.overview.api", "admin.overview.api.description",
			"admin.overview.api.empty", []string{"admin.overview.api.requests", "admin.overview.api.client_errors", "admin.overview.api.server_errors"},
			models.MetricAPIRequests, models.MetricAPIClientErrors, models.MetricAPIServerErrors),
		latencyChart(o),
	}
}

// latencyChart is the API's 95th percentile latency per hour, in ms.
func latencyChart(o *models.Overview) admin.OverviewChart {
	s := admin.OverviewSeries{NameID: "admin.overview.latency.p95"}
	for i, d := range o.P95 {
		s.Values = append(s.Values, float64(d)/float64(time.Millisecond))
		s.Missing = append(s.Missing, o.Hourly[models.MetricAPIRequests][i] == 0)
	}
	return admin.OverviewChart{ID: "chart-latency", TitleID: "admin.overview.latency", DescriptionID: "admin.overview.latency.description",
		EmptyID: "admin.overview.api.empty", Kind: admin.ChartLines, Buckets: o.Hours, Hourly: true, Unit: "ms",
		Series: []admin.OverviewSeries{s}}
}

// countSeries is one series per metric of figures, named by the catalog
// ids names.
func countSeries(names []string, figures map[string][]int64, metrics []string) []admin.OverviewSeries {
	out := make([]admin.OverviewSeries, len(metrics))
	for i, m := range metrics {
		out[i].NameID = names[i]
		for _, n := range figures[m] {
			out[i].Values = append(out[i].Values, float64(n))
		}
	}
	return out
}
