package models_test

import (
	"context"
	"testing"
	"time"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

// benchOrgs is how many organizations the year of rollups counts.
const benchOrgs = 10

// addYearOfRollups writes what a year of use by benchOrgs busy
// organizations leaves in metric_rollups when retention keeps it all: every
// hour, for each organization, every count metric and five latency buckets
// (8,760 hours × 10 organizations × 15 rows, and as many rows again for
// the all-organizations sums: ≈ 2.6 million rows).
func addYearOfRollups(b *testing.B, s *models.Store, now time.Time) int {
	b.Helper()
	ctx := context.Background()
	metrics := []string{models.MetricTransactionsCreated, models.MetricTransactionsSent, models.MetricRoomsOpened,
		models.MetricRoomsCompleted, models.MetricOutboxDelivered, models.MetricOutboxRetrying, models.MetricOutboxDead,
		models.MetricAPIRequests, models.MetricAPIClientErrors, models.MetricAPIServerErrors}
	last := now.Truncate(time.Hour)
	rows := 0
	counts := map[models.RollupKey]int64{}
	for h := range 365 * 24 {
		hour := last.Add(-time.Duration(h) * time.Hour).Unix()
		for org := int64(1); org <= benchOrgs; org++ {
			for i, m := range metrics {
				counts[models.RollupKey{Metric: m, Hour: hour, OrganizationID: org, Bucket: -1}] = int64(1 + (h+i)%17)
			}
			for bucket := 2; bucket < 7; bucket++ {
				counts[models.RollupKey{Metric: models.MetricAPILatency, Hour: hour, OrganizationID: org, Bucket: bucket}] = int64(1 + (h*bucket)%50)
			}
		}
		if len(counts) >= 20000 {
			rows += len(counts)
			if err := s.AddRollups(ctx, counts); err != nil {
				b.Fatal(err)
			}
			clear(counts)
		}
	}
	rows += len(counts)
	if err := s.AddRollups(ctx, counts); err != nil {
		b.Fatal(err)
	}
	return rows
}

// BenchmarkOverviewWithAYearOfRollups times Store.Overview (its three
// queries) for every organization and for one, on a year of rollups, on
// SQLite and, with TEST_DATABASE_URL, on PostgreSQL.
func BenchmarkOverviewWithAYearOfRollups(b *testing.B) {
	for _, dialect := range modelstest.Dialects() {
		b.Run(string(dialect), func(b *testing.B) {
			env := modelstest.New(b, dialect)
			rows := addYearOfRollups(b, env.Store, env.Clock.Now())
			if dialect == models.DialectPostgres {
				if err := env.DB.DB.Exec("ANALYZE metric_rollups").Error; err != nil {
					b.Fatal(err)
				}
			}
			for _, f := range []struct {
				name string
				org  int64
			}{{"all", 0}, {"one-org", 3}} {
				b.Run(f.name, func(b *testing.B) {
					b.ReportMetric(float64(rows), "rows")
					for b.Loop() {
						o, err := env.Store.Overview(context.Background(), models.OverviewFilter{OrganizationID: f.org})
						if err != nil {
							b.Fatal(err)
						}
						if o.Daily[models.MetricTransactionsCreated][models.OverviewDays-1] == 0 {
							b.Fatal("no figures today")
						}
					}
				})
			}
		})
	}
}
