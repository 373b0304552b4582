package models

import (
	"context"
	"strings"
	"time"
)

// OverviewDays and OverviewHours are the spans of the overview's charts:
// per-day figures for the last 30 days (today, UTC, included), per-hour
// figures for the last 48 hours (the current hour included).
const (
	OverviewDays  = 30
	OverviewHours = 48
)

// MetricRoomsExpired names the rooms that expired unfinished each day; it
// is counted from markup_rooms (an expiry writes nothing to count).
const MetricRoomsExpired = "rooms.expired"

// dailyMetrics and hourlyMetrics are the rolled-up figures of the overview.
var (
	dailyMetrics  = []string{MetricTransactionsCreated, MetricTransactionsSent, MetricRoomsOpened, MetricRoomsCompleted}
	hourlyMetrics = []string{MetricOutboxDelivered, MetricOutboxRetrying, MetricOutboxDead,
		MetricAPIRequests, MetricAPIClientErrors, MetricAPIServerErrors}
)

// Overview is the figures of the console's overview: Daily[metric][i] is
// the count on the day starting at Days[i], Hourly[metric][i] in the hour
// starting at Hours[i], P95[i] the API's 95th percentile latency in that
// hour (0 without requests).
type Overview struct {
	Days   []time.Time
	Hours  []time.Time
	Daily  map[string][]int64
	Hourly map[string][]int64
	P95    []time.Duration
}

// OverviewFilter narrows the overview to one organization (0: all).
type OverviewFilter struct {
	OrganizationID int64
}

// Overview reads the console's charts in three queries: the per-day and the
// per-hour sums of metric_rollups over every instance's rows (for all
// organizations, their AllOrganizations rows), and the rooms that expired
// each day from markup_rooms.
func (s *Store) Overview(ctx context.Context, f OverviewFilter) (*Overview, error) {
	now := s.Now().UTC()
	today := now.Truncate(24 * time.Hour)
	o := &Overview{Daily: map[string][]int64{}, Hourly: map[string][]int64{}, P95: make([]time.Duration, OverviewHours)}
	for i := range OverviewDays {
		o.Days = append(o.Days, today.AddDate(0, 0, i-OverviewDays+1))
	}
	first := time.Unix(hourOf(now), 0).UTC().Add(-(OverviewHours - 1) * time.Hour)
	for i := range OverviewHours {
		o.Hours = append(o.Hours, first.Add(time.Duration(i)*time.Hour))
	}
	for _, m := range append(append([]string{}, dailyMetrics...), MetricRoomsExpired) {
		o.Daily[m] = make([]int64, OverviewDays)
	}
	for _, m := range hourlyMetrics {
		o.Hourly[m] = make([]int64, OverviewHours)
	}
	if err := s.readDailyRollups(ctx, f, o); err != nil {
		return nil, err
	}
	if err := s.readHourlyRollups(ctx, f, o); err != nil {
		return nil, err
	}
	if err := s.readExpiredRooms(ctx, f, o, now); err != nil {
		return nil, err
	}
	return o, nil
}

// rollupsWithDeltas is metric_rollups and the deltas the sealer has not
// folded into it yet (models/metric_rollup.go, addRollupDeltas): the
// overview's counts include a change as soon as it commits.
const rollupsWithDeltas = `(SELECT metric, hour, organization_id, bucket, count FROM metric_rollups
	UNION ALL SELECT metric, hour, organization_id, bucket, count FROM metric_rollup_deltas) AS r`

// orgClause narrows a rollup query to f's organization's rows, or to the
// rows that sum them all.
func (f OverviewFilter) orgClause(args []any) (string, []any) {
	org := f.OrganizationID
	if org == 0 {
		org = AllOrganizations
	}
	return " AND organization_id = ?", append(args, org)
}

// readDailyRollups sums the daily metrics per UTC day.
func (s *Store) readDailyRollups(ctx context.Context, f OverviewFilter, o *Overview) error {
	from := o.Days[0].Unix()
	where, args := f.orgClause([]any{dailyMetrics, from, from + OverviewDays*86400, noBucket})
	var rows []struct {
		Metric string
		Day    int64
		N      int64
	}
	err := s.db.WithContext(ctx).Raw(`SELECT metric, hour - hour % 86400 AS day, SUM(count) AS n FROM `+rollupsWithDeltas+`
		WHERE metric IN ? AND hour >= ? AND hour < ? AND bucket = ?`+where+`
		GROUP BY metric, hour - hour % 86400`, args...).Scan(&rows).Error
	if err != nil {
		return mapDBError(err)
	}
	for _, r := range rows {
		if i := int((r.Day - from) / 86400); i >= 0 && i < OverviewDays {
			o.Daily[r.Metric][i] += r.N
		}
	}
	return nil
}

// readHourlyRollups sums the hourly metrics and the latency buckets per
// hour, then computes each hour's p95 from its merged buckets.
func (s *Store) readHourlyRollups(ctx context.Context, f OverviewFilter, o *Overview) error {
	from := o.Hours[0].Unix()
	metrics := append(append([]string{}, hourlyMetrics...), MetricAPILatency)
	where, args := f.orgClause([]any{metrics, from, from + OverviewHours*3600})
	var rows []struct {
		Metric string
		Hour   int64
		Bucket int
		N      int64
	}
	err := s.db.WithContext(ctx).Raw(`SELECT metric, hour, bucket, SUM(count) AS n FROM `+rollupsWithDeltas+`
		WHERE metric IN ? AND hour >= ? AND hour < ?`+where+`
		GROUP BY metric, hour, bucket`, args...).Scan(&rows).Error
	if err != nil {
		return mapDBError(err)
	}
	buckets := make([][]int64, OverviewHours)
	for _, r := range rows {
		i := int((r.Hour - from) / 3600)
		if i < 0 || i >= OverviewHours {
			continue
		}
		if r.Metric != MetricAPILatency {
			o.Hourly[r.Metric][i] += r.N
			continue
		}
		if r.Bucket < 0 || r.Bucket >= LatencyBucketCount {
			continue
		}
		if buckets[i] == nil {
			buckets[i] = make([]int64, LatencyBucketCount)
		}
		buckets[i][r.Bucket] += r.N
	}
	for i, b := range buckets {
		o.P95[i] = LatencyQuantile(b, 0.95)
	}
	return nil
}

// readExpiredRooms counts, per day, the rooms whose time ran out that day
// (before now) without being completed: one query with a sum per day, on
// the index of markup_rooms.expires_at.
func (s *Store) readExpiredRooms(ctx context.Context, f OverviewFilter, o *Overview, now time.Time) error {
	var sql strings.Builder
	var args []any
	sql.WriteString("SELECT ")
	for i, d := range o.Days {
		if i > 0 {
			sql.WriteString(", ")
		}
		sql.WriteString("COALESCE(SUM(CASE WHEN expires_at >= ? AND expires_at < ? THEN 1 ELSE 0 END), 0)")
		args = append(args, d, d.AddDate(0, 0, 1))
	}
	sql.WriteString(" FROM markup_rooms WHERE status = ? AND expires_at >= ? AND expires_at <= ?")
	args = append(args, RoomOpen, o.Days[0], now)
	if f.OrganizationID != 0 {
		sql.WriteString(" AND organization_id = ?")
		args = append(args, f.OrganizationID)
	}
	row := s.db.WithContext(ctx).Raw(sql.String(), args...).Row()
	dest := make([]any, OverviewDays)
	for i := range dest {
		dest[i] = &o.Daily[MetricRoomsExpired][i]
	}
	return mapDBError(row.Scan(dest...))
}

// LatencyQuantile estimates the q quantile (0 < q ≤ 1) of a latency
// histogram with latencyBounds' bounds (counts[i] is bucket i's count;
// the last counts the requests slower than every bound), interpolating
// linearly inside the bucket the quantile falls in, as Prometheus'
// histogram_quantile does. A quantile in the last bucket is its lower bound
// (the histogram knows no more); no requests give 0.
func LatencyQuantile(counts []int64, q float64) time.Duration {
	var total int64
	for _, n := range counts {
		total += n
	}
	if total == 0 {
		return 0
	}
	rank := q * float64(total)
	var seen int64
	for i, n := range counts {
		if n == 0 || float64(seen+n) < rank {
			seen += n
			continue
		}
		if i >= len(latencyBounds) {
			return latencyBounds[len(latencyBounds)-1]
		}
		var lower time.Duration
		if i > 0 {
			lower = latencyBounds[i-1]
		}
		frac := (rank - float64(seen)) / float64(n)
		return lower + time.Duration(frac*float64(latencyBounds[i]-lower))
	}
	return latencyBounds[len(latencyBounds)-1]
}
