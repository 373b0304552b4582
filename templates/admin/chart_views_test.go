package admin

import (
	"strconv"
	"testing"
)

func TestNiceMaxIsARoundCeilingInFourSteps(t *testing.T) {
	for in, want := range map[float64]float64{0: 4, 3: 4, 4: 4, 5: 8, 9: 10, 37: 40, 101: 200, 950: 1000, 1001: 2000, 2000: 2000, 2400: 4000, 373.75: 400} {
		if got := niceMax(in); got != want {
			t.Errorf("niceMax(%v) = %v, want %v", in, got, want)
		}
	}
}

func TestChartForLaysOutBarsLinesAndTheTable(t *testing.T) {
	labels := []string{"1 Nov", "2 Nov", "3 Nov", "4 Nov"}
	bars := ChartFor(ChartInput{ID: "c", Title: "T", Description: "D.", Kind: ChartBars, Labels: labels, Ticks: []string{"1 Nov", "", "", "4 Nov"},
		BucketHeading: "Day", Series: []ChartSeriesInput{
			{Name: "Created", Values: []float64{0, 2, 4, 1}, Texts: []string{"0", "2", "4", "1"}},
			{Name: "Sent", Values: []float64{0, 1, 0, 0}, Texts: []string{"0", "1", "0", "0"}},
		}})
	if bars.IsEmpty || len(bars.Series) != 2 || len(bars.Series[0].Bars) != 4 || len(bars.XTicks) != 2 || len(bars.Grid) != 5 {
		t.Fatalf("layout: empty %v, %d series, %d bars, %d ticks, %d grid lines", bars.IsEmpty, len(bars.Series), len(bars.Series[0].Bars), len(bars.XTicks), len(bars.Grid))
	}
	// The tallest bar (4 of a 0–4 axis) fills the plot's height; a zero bar has none.
	plotH := float64(chartHeight - chartTop - chartBottom)
	if h, _ := strconv.ParseFloat(bars.Series[0].Bars[2].H, 64); h != plotH {
		t.Errorf("the bar of 4 is %v high, want %v", h, plotH)
	}
	if bars.Series[0].Bars[0].H != "0" || bars.Series[1].PatternID != "c-p1" || bars.Series[1].Style != 1 {
		t.Errorf("bars: %+v, %+v", bars.Series[0].Bars[0], bars.Series[1])
	}
	if bars.Rows[2].Label != "3 Nov" || bars.Rows[2].Cells[0] != "4" || bars.Rows[2].Cells[1] != "0" {
		t.Errorf("table row: %+v", bars.Rows[2])
	}
	if bars.Summary != "D. Created: 7 in all; Sent: 1 in all." {
		t.Errorf("summary %q", bars.Summary)
	}
	line := ChartFor(ChartInput{ID: "l", Kind: ChartLines, Labels: labels, Ticks: make([]string, 4), Unit: "ms", Series: []ChartSeriesInput{
		{Name: "p95", Values: []float64{10, 0, 30, 20}, Texts: []string{"10 ms", "no requests", "30 ms", "20 ms"}, Missing: []bool{false, true, false, false}},
	}})
	if s := line.Series[0]; len(s.Lines) != 2 || len(s.Markers) != 3 || len(s.Bars) != 0 {
		t.Errorf("line: %d polylines, %d markers, %d bars; want 2, 3, 0", len(s.Lines), len(s.Markers), len(s.Bars))
	}
	if line.Summary != " p95: highest 30 ms (3 Nov)." {
		t.Errorf("summary %q", line.Summary)
	}
	empty := ChartFor(ChartInput{ID: "e", Labels: labels, Ticks: make([]string, 4), Series: []ChartSeriesInput{
		{Name: "x", Values: make([]float64, 4), Texts: []string{"0", "0", "0", "0"}},
	}})
	if !empty.IsEmpty || len(empty.Rows) != 4 {
		t.Errorf("no figures: empty %v, %d rows", empty.IsEmpty, len(empty.Rows))
	}
}
