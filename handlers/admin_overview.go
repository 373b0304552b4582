package handlers

import (
	"context"
	"math"
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
	l := i18n.From(ctx)
	v := admin.OverviewView{Action: route.Admin.Path(), OrganizationID: c.Query("org"), Scope: l.T("admin.list.all_organizations")}
	found := f.OrganizationID == 0
	for _, o := range orgs {
		v.Organizations = append(v.Organizations, templates.OptionView{Value: strconv.FormatInt(o.ID, 10), Label: i18n.Plain(o.Name)})
		if o.ID == f.OrganizationID {
			v.Scope, found = o.Name, true
		}
	}
	if !found {
		return errStatus(http.StatusNotFound, "admin.overview.no_such_organization", "id", strconv.FormatInt(f.OrganizationID, 10))
	}
	o, err := h.overview.Overview(ctx, f)
	if err != nil {
		return err
	}
	v.Charts = overviewCharts(l, o)
	render(c, http.StatusOK, admin.OverviewPage(h.adminPage(c, i18n.Msg("admin.nav.overview"), route.Admin.Path()), v))
	return nil
}

// overviewCharts shapes the overview's figures as its five charts.
func overviewCharts(l *i18n.Localizer, o *models.Overview) []admin.ChartView {
	days, dayTicks := dayLabels(l, o.Days)
	hours, hourTicks := hourLabels(l, o.Hours)
	// Each chart's words are catalog ids: title, description, empty state,
	// then one name per series.
	daily := func(id, title, desc, empty string, names []string, metrics ...string) admin.ChartView {
		return admin.ChartFor(admin.ChartInput{ID: id, Title: l.T(title), Description: l.T(desc), Kind: admin.ChartBars, Lang: l,
			Labels: days, Ticks: dayTicks, BucketHeading: l.T("admin.chart.day_utc"), Series: countSeries(l, names, o.Daily, metrics), Empty: l.T(empty)})
	}
	hourly := func(id, title, desc, empty string, names []string, metrics ...string) admin.ChartView {
		return admin.ChartFor(admin.ChartInput{ID: id, Title: l.T(title), Description: l.T(desc), Kind: admin.ChartBars, Lang: l,
			Labels: hours, Ticks: hourTicks, BucketHeading: l.T("admin.chart.hour_utc"), Series: countSeries(l, names, o.Hourly, metrics), Empty: l.T(empty)})
	}
	return []admin.ChartView{
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
		latencyChart(l, o, hours, hourTicks),
	}
}

// latencyChart is the API's 95th percentile latency per hour, in ms.
func latencyChart(l *i18n.Localizer, o *models.Overview, hours, ticks []string) admin.ChartView {
	s := admin.ChartSeriesInput{Name: l.T("admin.overview.latency.p95")}
	for i, d := range o.P95 {
		ms := float64(d) / float64(time.Millisecond)
		s.Values = append(s.Values, ms)
		s.Missing = append(s.Missing, o.Hourly[models.MetricAPIRequests][i] == 0)
		switch {
		case o.Hourly[models.MetricAPIRequests][i] == 0:
			s.Texts = append(s.Texts, l.T("admin.overview.latency.no_requests"))
		case ms < 10:
			s.Texts = append(s.Texts, l.T("admin.overview.latency.ms", "ms", l.Decimal(math.Round(ms*10)/10, 1)))
		default:
			s.Texts = append(s.Texts, l.T("admin.overview.latency.ms", "ms", l.Number(int(math.Round(ms)))))
		}
	}
	return admin.ChartFor(admin.ChartInput{ID: "chart-latency", Title: l.T("admin.overview.latency"),
		Description: l.T("admin.overview.latency.description"),
		Kind:        admin.ChartLines, Labels: hours, Ticks: ticks, BucketHeading: l.T("admin.chart.hour_utc"), Unit: "ms", Lang: l,
		Series: []admin.ChartSeriesInput{s}, Empty: l.T("admin.overview.api.empty")})
}

// countSeries is one series per metric of figures, named by the catalog
// ids names.
func countSeries(l *i18n.Localizer, names []string, figures map[string][]int64, metrics []string) []admin.ChartSeriesInput {
	out := make([]admin.ChartSeriesInput, len(metrics))
	for i, m := range metrics {
		out[i].Name = l.T(names[i])
		for _, n := range figures[m] {
			out[i].Values = append(out[i].Values, float64(n))
			out[i].Texts = append(out[i].Texts, l.Number(int(n)))
		}
	}
	return out
}

// dayLabels names each day ("22 Nov 2026") and labels the axis every
// seventh day, counting back from today.
func dayLabels(l *i18n.Localizer, days []time.Time) (labels, ticks []string) {
	for i, d := range days {
		labels = append(labels, consoleDate(l, d))
		tick := ""
		if (len(days)-1-i)%7 == 0 {
			tick = consoleDay(l, d)
		}
		ticks = append(ticks, tick)
	}
	return labels, ticks
}

// hourLabels names each hour ("22 Nov 2026, 09:00") and labels the axis
// every six hours (midnight by its date).
func hourLabels(l *i18n.Localizer, hours []time.Time) (labels, ticks []string) {
	for _, h := range hours {
		labels = append(labels, consoleDateTime(l, h, "15:04"))
		tick := ""
		switch {
		case h.Hour() == 0:
			tick = consoleDay(l, h)
		case h.Hour()%6 == 0:
			tick = h.Format("15:04")
		}
		ticks = append(ticks, tick)
	}
	return labels, ticks
}
