package admin

import (
	"math"
	"strconv"
	"strings"

	"github.com/markuproom/markuproom/web/i18n"
)

// ChartKind is how a chart draws its series.
type ChartKind int

const (
	// ChartBars draws each bucket's series as bars side by side.
	ChartBars ChartKind = iota
	// ChartLines draws each series as a line with a marker per bucket.
	ChartLines
)

// The chart's drawing area, in viewBox units: the SVG scales to its box's
// width (viewBox), so one geometry serves every screen width.
const (
	chartWidth  = 480
	chartHeight = 210
	chartLeft   = 44 // room for the value axis' labels
	chartRight  = 22 // room for half the last time label
	chartTop    = 12
	chartBottom = 28 // room for the time axis' labels
	chartTicks  = 4  // value axis lines above zero
)

// ChartInput is what a chart shows: one value per bucket (Labels) for each
// series, with the words of each value (Texts) for its table.
type ChartInput struct {
	// ID prefixes the ids of the chart's SVG parts (unique on the page).
	ID, Title, Description string
	Kind                   ChartKind
	// Labels name each bucket in the table ("22 Nov 2026"); Ticks are the
	// time axis' short labels, "" where none is drawn.
	Labels, Ticks []string
	// BucketHeading heads the table's first column ("Day", "Hour (UTC)").
	BucketHeading string
	// Unit is the values' unit ("ms", named in the title too); empty for
	// counts.
	Unit   string
	Series []ChartSeriesInput
	// Empty is the empty state's sentence.
	Empty string
	// Lang writes the chart's numbers and sentences (nil: English).
	Lang *i18n.Localizer
}

// ChartSeriesInput is one series: a name for the legend and the table
// head, one value per bucket, and its words for the table.
type ChartSeriesInput struct {
	Name   string
	Values []float64
	Texts  []string
	// Missing marks the buckets without a value (a line breaks there);
	// nil when every bucket has one.
	Missing []bool
}

// ChartView is a chart laid out for the template (ChartFor).
type ChartView struct {
	ID, Title, Description string
	// Summary is the SVG's accessible description: the totals in words.
	Summary       string
	Width, Height int
	Bars          bool
	// IsEmpty draws the empty state instead of the SVG.
	IsEmpty bool
	Empty   string
	// Grid are the value axis' lines with their labels; XTicks the time
	// axis' labels.
	Grid   []ChartTick
	XTicks []ChartTick
	// PlotLeft, PlotRight, PlotBottom bound the drawing area (axes).
	PlotLeft, PlotRight, PlotBottom string
	Series                          []ChartSeriesView
	// Table is the figures: BucketHeading, then a row per bucket.
	BucketHeading string
	Rows          []ChartRow
}

// ChartTick is one axis label at a position (X, Y as SVG numbers).
type ChartTick struct {
	X, Y, Label string
}

// ChartSeriesView is one drawn series: Style (0, 1, 2) picks its colour and
// pattern (bars) or dash and marker (lines), so no series is told from
// another by colour alone; PatternID is its bars' fill pattern.
type ChartSeriesView struct {
	Name, PatternID string
	Style           int
	Bars            []ChartRect
	// Lines are the line's polylines (it breaks where a value is missing);
	// Markers its points.
	Lines   []string
	Markers []ChartPoint
}

// ChartRect is one bar, with its value in words for a tooltip.
type ChartRect struct {
	X, Y, W, H, Title string
}

// ChartPoint is one marker of a line.
type ChartPoint struct {
	X, Y, Title string
}

// ChartRow is one bucket's figures, one per series.
type ChartRow struct {
	Label string
	Cells []string
}

// num writes an SVG number with at most one decimal.
func num(f float64) string {
	return strconv.FormatFloat(math.Round(f*10)/10, 'f', -1, 64)
}

// niceMax is the smallest 1, 2, 2.5 or 5 × 10ⁿ at least max, divisible
// into chartTicks steps (at least chartTicks, so counts get whole steps).
func niceMax(max float64) float64 {
	if max <= chartTicks {
		return chartTicks
	}
	step := max / chartTicks
	mag := math.Pow(10, math.Floor(math.Log10(step)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*mag >= step {
			return m * mag * chartTicks
		}
	}
	return 10 * mag * chartTicks
}

// ChartFor lays out a chart: the value axis from 0 to a round maximum, the
// buckets across the width, bars side by side or lines with markers.
func ChartFor(in ChartInput) ChartView {
	v := ChartView{ID: in.ID, Title: in.Title, Description: in.Description, Width: chartWidth, Height: chartHeight,
		Bars: in.Kind == ChartBars, Empty: in.Empty, BucketHeading: in.BucketHeading,
		PlotLeft: num(chartLeft), PlotRight: num(chartWidth - chartRight), PlotBottom: num(chartHeight - chartBottom)}
	var max float64
	for _, s := range in.Series {
		for _, x := range s.Values {
			max = math.Max(max, x)
		}
	}
	l := in.Lang
	if l == nil {
		l = i18n.English()
	}
	v.IsEmpty = max == 0
	v.Summary = chartSummary(l, in)
	for i, label := range in.Labels {
		row := ChartRow{Label: label}
		for _, s := range in.Series {
			row.Cells = append(row.Cells, s.Texts[i])
		}
		v.Rows = append(v.Rows, row)
	}
	top := niceMax(max)
	plotW := float64(chartWidth - chartLeft - chartRight)
	plotH := float64(chartHeight - chartTop - chartBottom)
	y := func(val float64) float64 { return chartTop + plotH - val/top*plotH }
	for i := 0; i <= chartTicks; i++ {
		val := top * float64(i) / chartTicks
		label := l.Decimal(val, 2)
		v.Grid = append(v.Grid, ChartTick{X: num(chartLeft - 6), Y: num(y(val)), Label: label})
	}
	n := len(in.Labels)
	if n == 0 {
		return v
	}
	band := plotW / float64(n)
	for i, t := range in.Ticks {
		if t != "" {
			v.XTicks = append(v.XTicks, ChartTick{X: num(chartLeft + band*(float64(i)+0.5)), Y: num(chartHeight - 8), Label: t})
		}
	}
	for si, s := range in.Series {
		sv := ChartSeriesView{Name: s.Name, Style: si % 3, PatternID: in.ID + "-p" + strconv.Itoa(si)}
		var pts []string
		for i, val := range s.Values {
			if i < len(s.Missing) && s.Missing[i] {
				if len(pts) > 0 {
					sv.Lines = append(sv.Lines, strings.Join(pts, " "))
				}
				pts = nil
				continue
			}
			title := l.T("admin.chart.point", "bucket", in.Labels[i], "value", s.Texts[i], "series", seriesInText(l, s.Name))
			if v.Bars {
				w := band * 0.8 / float64(len(in.Series))
				x := chartLeft + band*float64(i) + band*0.1 + w*float64(si)
				sv.Bars = append(sv.Bars, ChartRect{X: num(x), Y: num(y(val)), W: num(w), H: num(y(0) - y(val)), Title: title})
				continue
			}
			cx, cy := num(chartLeft+band*(float64(i)+0.5)), num(y(val))
			pts = append(pts, cx+","+cy)
			sv.Markers = append(sv.Markers, ChartPoint{X: cx, Y: cy, Title: title})
		}
		if len(pts) > 0 {
			sv.Lines = append(sv.Lines, strings.Join(pts, " "))
		}
		v.Series = append(v.Series, sv)
	}
	return v
}

// chartSummary is the chart's totals (or, with a unit, its highest value)
// in words, for the SVG's accessible description.
func chartSummary(l *i18n.Localizer, in ChartInput) string {
	var parts []string
	for _, s := range in.Series {
		if in.Unit != "" {
			var best float64
			at := ""
			for i, x := range s.Values {
				if x > best {
					best, at = x, in.Labels[i]
				}
			}
			if at == "" {
				parts = append(parts, l.T("admin.chart.no_figures", "series", s.Name))
				continue
			}
			parts = append(parts, l.T("admin.chart.highest", "series", s.Name, "value", l.Number(int(math.Round(best))), "unit", in.Unit, "at", at))
			continue
		}
		var total float64
		for _, x := range s.Values {
			total += x
		}
		parts = append(parts, l.T("admin.chart.total", "series", s.Name, "total", l.Decimal(total, 2)))
	}
	return l.T("admin.chart.summary", "description", in.Description, "figures", strings.Join(parts, l.T("admin.chart.separator")))
}

// seriesInText is a series' name inside a sentence ("3 created"): lower
// case, except in German, whose nouns keep their capital.
func seriesInText(l *i18n.Localizer, name string) string {
	if l.Language().Tag == "de" {
		return name
	}
	return strings.ToLower(name)
}

// itoa writes an int for an attribute.
func itoa(i int) string { return strconv.Itoa(i) }
