package admin

import (
	"context"
	"math"
	"time"

	"github.com/markuproom/markuproom/templates"
	"github.com/markuproom/markuproom/web/i18n"
)

// OverviewView is the console's home: its charts and the organization
// filter (every filtered view is a URL: /admin?org=ID).
type OverviewView struct {
	// Action is the overview's own address, where the filter is sent.
	Action        string
	Organizations []templates.OptionView
	// OrganizationID is the filter as given ("" for all); Scope names it
	// ("All organizations", "Acme").
	OrganizationID string
	Scope          i18n.Words
	Charts         []OverviewChart
}

// OverviewChart is one chart of the overview as data: catalog ids for its
// words, its buckets' times and one series per metric; the view words and
// lays it out (chartOf).
type OverviewChart struct {
	// ID prefixes the ids of the chart's SVG parts (unique on the page).
	ID string
	// TitleID, DescriptionID and EmptyID are the catalog ids of its title,
	// description and empty state.
	TitleID, DescriptionID, EmptyID string
	Kind                            ChartKind
	// Buckets are the days (Hourly false) or hours the values are of.
	Buckets []time.Time
	Hourly  bool
	// Unit is "ms" for a latency (values in milliseconds); "" for counts.
	Unit   string
	Series []OverviewSeries
}

// OverviewSeries is one series: its name's catalog id and one value per
// bucket; Missing marks the buckets without one (no requests).
type OverviewSeries struct {
	NameID  string
	Values  []float64
	Missing []bool
}

// chartOf words and lays out an overview chart in the page's language.
func chartOf(ctx context.Context, c OverviewChart) ChartView {
	l := i18n.From(ctx)
	in := ChartInput{ID: c.ID, Title: l.T(c.TitleID), Description: l.T(c.DescriptionID), Kind: c.Kind, Unit: c.Unit,
		Empty: l.T(c.EmptyID), Lang: l}
	if c.Hourly {
		in.BucketHeading = l.T("admin.chart.hour_utc")
		in.Labels, in.Ticks = hourLabels(ctx, c.Buckets)
	} else {
		in.BucketHeading = l.T("admin.chart.day_utc")
		in.Labels, in.Ticks = dayLabels(ctx, c.Buckets)
	}
	for _, s := range c.Series {
		si := ChartSeriesInput{Name: l.T(s.NameID), Values: s.Values, Missing: s.Missing}
		for i, v := range s.Values {
			si.Texts = append(si.Texts, valueText(l, c.Unit, v, i < len(s.Missing) && s.Missing[i]))
		}
		in.Series = append(in.Series, si)
	}
	return ChartFor(in)
}

// valueText is one value in words for the chart's table: a count, or a
// latency in ms (one decimal under 10 ms), or "no requests".
func valueText(l *i18n.Localizer, unit string, v float64, missing bool) string {
	switch {
	case unit == "":
		return l.Number(int(v))
	case missing:
		return l.T("admin.overview.latency.no_requests")
	case v < 10:
		return l.T("admin.overview.latency.ms", "ms", l.Decimal(math.Round(v*10)/10, 1))
	default:
		return l.T("admin.overview.latency.ms", "ms", l.Number(int(math.Round(v))))
	}
}

// dayLabels names each day ("22 Nov 2026") and labels the axis every
// seventh day, counting back from today.
func dayLabels(ctx context.Context, days []time.Time) (labels, ticks []string) {
	for i, d := range days {
		labels = append(labels, consoleDate(ctx, d))
		tick := ""
		if (len(days)-1-i)%7 == 0 {
			tick = consoleDay(ctx, d)
		}
		ticks = append(ticks, tick)
	}
	return labels, ticks
}

// hourLabels names each hour ("22 Nov 2026, 09:00") and labels the axis
// every six hours (midnight by its date).
func hourLabels(ctx context.Context, hours []time.Time) (labels, ticks []string) {
	for _, h := range hours {
		labels = append(labels, consoleDateTime(ctx, h, "15:04"))
		tick := ""
		switch {
		case h.Hour() == 0:
			tick = consoleDay(ctx, h)
		case h.Hour()%6 == 0:
			tick = h.Format("15:04")
		}
		ticks = append(ticks, tick)
	}
	return labels, ticks
}
