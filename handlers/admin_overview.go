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
			return models.Invalid("query:org", "invalid_type", "org must be an organization's id.")
		}
		f.OrganizationID = id
	}
	ctx := c.Request.Context()
	orgs, err := h.transactions.OrganizationNames(ctx)
	if err != nil {
		return err
	}
	v := admin.OverviewView{Action: route.Admin.Path(), OrganizationID: c.Query("org"), Scope: "All organizations"}
	found := f.OrganizationID == 0
	for _, o := range orgs {
		v.Organizations = append(v.Organizations, templates.OptionView{Value: strconv.FormatInt(o.ID, 10), Label: o.Name})
		if o.ID == f.OrganizationID {
			v.Scope, found = o.Name, true
		}
	}
	if !found {
		return errStatus(http.StatusNotFound, "There is no organization "+strconv.FormatInt(f.OrganizationID, 10)+".")
	}
	o, err := h.overview.Overview(ctx, f)
	if err != nil {
		return err
	}
	v.Charts = overviewCharts(o)
	render(c, http.StatusOK, admin.OverviewPage(h.adminPage(c, "Overview", route.Admin.Path()), v))
	return nil
}

// overviewCharts shapes the overview's figures as its five charts.
func overviewCharts(o *models.Overview) []admin.ChartView {
	days, dayTicks := dayLabels(o.Days)
	hours, hourTicks := hourLabels(o.Hours)
	daily := func(id, title, desc, empty string, names []string, metrics ...string) admin.ChartView {
		return admin.ChartFor(admin.ChartInput{ID: id, Title: title, Description: desc, Kind: admin.ChartBars,
			Labels: days, Ticks: dayTicks, BucketHeading: "Day (UTC)", Series: countSeries(names, o.Daily, metrics), Empty: empty})
	}
	hourly := func(id, title, desc, empty string, names []string, metrics ...string) admin.ChartView {
		return admin.ChartFor(admin.ChartInput{ID: id, Title: title, Description: desc, Kind: admin.ChartBars,
			Labels: hours, Ticks: hourTicks, BucketHeading: "Hour (UTC)", Series: countSeries(names, o.Hourly, metrics), Empty: empty})
	}
	return []admin.ChartView{
		daily("chart-transactions", "Transactions per day", "Transactions created and sent for signing each day of the last 30 days.",
			"No transactions were created or sent in the last 30 days.", []string{"Created", "Sent for signing"},
			models.MetricTransactionsCreated, models.MetricTransactionsSent),
		daily("chart-rooms", "Markup Rooms per day", "Markup Rooms opened, completed and expired unfinished each day of the last 30 days.",
			"No Markup Room was opened, completed or expired in the last 30 days.", []string{"Opened", "Completed", "Expired"},
			models.MetricRoomsOpened, models.MetricRoomsCompleted, models.MetricRoomsExpired),
		hourly("chart-outbox", "Outgoing messages per hour", "E-mails and webhook calls delivered, failed and to be retried, and given up (dead) each hour of the last 48 hours.",
			"No message was sent or tried in the last 48 hours.", []string{"Delivered", "Retrying", "Dead"},
			models.MetricOutboxDelivered, models.MetricOutboxRetrying, models.MetricOutboxDead),
		hourly("chart-api", "API requests per hour", "API requests and their client (4xx) and server (5xx) errors each hour of the last 48 hours.",
			"No API request in the last 48 hours.", []string{"Requests", "Client errors (4xx)", "Server errors (5xx)"},
			models.MetricAPIRequests, models.MetricAPIClientErrors, models.MetricAPIServerErrors),
		latencyChart(o, hours, hourTicks),
	}
}

// latencyChart is the API's 95th percentile latency per hour, in ms.
func latencyChart(o *models.Overview, hours, ticks []string) admin.ChartView {
	s := admin.ChartSeriesInput{Name: "95th percentile"}
	for i, d := range o.P95 {
		ms := float64(d) / float64(time.Millisecond)
		s.Values = append(s.Values, ms)
		s.Missing = append(s.Missing, o.Hourly[models.MetricAPIRequests][i] == 0)
		switch {
		case o.Hourly[models.MetricAPIRequests][i] == 0:
			s.Texts = append(s.Texts, "no requests")
		case ms < 10:
			s.Texts = append(s.Texts, strconv.FormatFloat(ms, 'f', 1, 64)+" ms")
		default:
			s.Texts = append(s.Texts, strconv.FormatFloat(ms, 'f', 0, 64)+" ms")
		}
	}
	return admin.ChartFor(admin.ChartInput{ID: "chart-latency", Title: "API latency per hour (95th percentile, ms)",
		Description: "The time within which 95 of 100 API requests were answered, each hour of the last 48 hours.",
		Kind:        admin.ChartLines, Labels: hours, Ticks: ticks, BucketHeading: "Hour (UTC)", Unit: "ms",
		Series: []admin.ChartSeriesInput{s}, Empty: "No API request in the last 48 hours."})
}

// countSeries is one series per metric of figures, named by names.
func countSeries(names []string, figures map[string][]int64, metrics []string) []admin.ChartSeriesInput {
	out := make([]admin.ChartSeriesInput, len(metrics))
	for i, m := range metrics {
		out[i].Name = names[i]
		for _, n := range figures[m] {
			out[i].Values = append(out[i].Values, float64(n))
			out[i].Texts = append(out[i].Texts, strconv.FormatInt(n, 10))
		}
	}
	return out
}

// dayLabels names each day ("22 Nov 2026") and labels the axis every
// seventh day, counting back from today.
func dayLabels(days []time.Time) (labels, ticks []string) {
	for i, d := range days {
		labels = append(labels, d.Format("2 Jan 2006"))
		tick := ""
		if (len(days)-1-i)%7 == 0 {
			tick = d.Format("2 Jan")
		}
		ticks = append(ticks, tick)
	}
	return labels, ticks
}

// hourLabels names each hour ("22 Nov 2026, 09:00") and labels the axis
// every six hours (midnight by its date).
func hourLabels(hours []time.Time) (labels, ticks []string) {
	for _, h := range hours {
		labels = append(labels, h.Format("2 Jan 2006, 15:04"))
		tick := ""
		switch {
		case h.Hour() == 0:
			tick = h.Format("2 Jan")
		case h.Hour()%6 == 0:
			tick = h.Format("15:04")
		}
		ticks = append(ticks, tick)
	}
	return labels, ticks
}
