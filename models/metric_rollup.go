package models

import (
	"context"
	"sort"
	"strings"
	"time"
)

// The metrics of the console's overview, counted per hour and organization
// in metric_rollups (docs/decisions.md, "Overview charts").
const (
	// MetricTransactionsCreated counts transactions created (API or room).
	MetricTransactionsCreated = "transactions.created"
	// MetricTransactionsSent counts transactions that became esign_pending.
	MetricTransactionsSent = "transactions.sent"
	// MetricRoomsOpened counts Markup Rooms created.
	MetricRoomsOpened = "rooms.opened"
	// MetricRoomsCompleted counts Markup Rooms completed.
	MetricRoomsCompleted = "rooms.completed"
	// MetricOutboxDelivered counts outgoing messages delivered.
	MetricOutboxDelivered = "outbox.delivered"
	// MetricOutboxRetrying counts failed sends that will be tried again.
	MetricOutboxRetrying = "outbox.retrying"
	// MetricOutboxDead counts messages given up (dead).
	MetricOutboxDead = "outbox.dead"
	// MetricAPIRequests counts API requests (every status).
	MetricAPIRequests = "api.requests"
	// MetricAPIClientErrors counts API answers with a 4xx status.
	MetricAPIClientErrors = "api.errors_4xx"
	// MetricAPIServerErrors counts API answers with a 5xx status.
	MetricAPIServerErrors = "api.errors_5xx"
	// MetricAPILatency is the API's latency histogram: one row per bucket
	// of LatencyBucketCount.
	MetricAPILatency = "api.latency"
)

// noBucket is the bucket of a plain count.
const noBucket = -1

// AllOrganizations is the organization_id of the rows that sum every
// organization's counts (AddRollups adds to them with each count).
const AllOrganizations = -1

// metricRollup is one row of metric_rollups: count of metric in the hour
// starting at Hour (Unix seconds, UTC) for an organization (0: none;
// AllOrganizations: the sum of all); Bucket
// is a latency bucket's index, or -1.
type metricRollup struct {
	Metric         string `gorm:"column:metric;primaryKey"`
	OrganizationID int64  `gorm:"column:organization_id;primaryKey"`
	Hour           int64  `gorm:"column:hour;primaryKey"`
	Bucket         int    `gorm:"column:bucket;primaryKey"`
	Count          int64  `gorm:"column:count"`
}

// TableName implements gorm's tabler.
func (metricRollup) TableName() string { return "metric_rollups" }

// RollupKey names one counter of metric_rollups.
type RollupKey struct {
	Metric         string
	Hour           int64
	OrganizationID int64
	Bucket         int
}

// hourOf is the Unix time of the start of t's hour (UTC).
func hourOf(t time.Time) int64 {
	u := t.Unix()
	return u - mod(u, 3600)
}

// mod is a modulo that is never negative.
func mod(a, b int64) int64 {
	m := a % b
	if m < 0 {
		m += b
	}
	return m
}

// withTotals is counts with each count added to its AllOrganizations row too.
func withTotals(counts map[RollupKey]int64) map[RollupKey]int64 {
	out := make(map[RollupKey]int64, 2*len(counts))
	for k, n := range counts {
		out[k] += n
		if k.OrganizationID != AllOrganizations {
			k.OrganizationID = AllOrganizations
			out[k] += n
		}
	}
	return out
}

// sortedRollupKeys are counts' keys in one order, so that concurrent
// flushes lock rows alike.
func sortedRollupKeys(counts map[RollupKey]int64) []RollupKey {
	keys := make([]RollupKey, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.Metric != b.Metric {
			return a.Metric < b.Metric
		}
		if a.OrganizationID != b.OrganizationID {
			return a.OrganizationID < b.OrganizationID
		}
		if a.Hour != b.Hour {
			return a.Hour < b.Hour
		}
		return a.Bucket < b.Bucket
	})
	return keys
}

// upsertRollupKeys is the statement that adds counts[k] for each of keys
// (which must differ), in their order.
func upsertRollupKeys(keys []RollupKey, counts map[RollupKey]int64) (string, []any) {
	var sql strings.Builder
	sql.WriteString("INSERT INTO metric_rollups (metric, hour, organization_id, bucket, count) VALUES ")
	args := make([]any, 0, 5*len(keys))
	for i, k := range keys {
		if i > 0 {
			sql.WriteString(", ")
		}
		sql.WriteString("(?, ?, ?, ?, ?)")
		args = append(args, k.Metric, k.Hour, k.OrganizationID, k.Bucket, counts[k])
	}
	sql.WriteString(" ON CONFLICT (metric, hour, organization_id, bucket) DO UPDATE SET count = metric_rollups.count + excluded.count")
	return sql.String(), args
}

// maxRollupRows is how many rows one flush statement adds to (5 parameters
// each, far under PostgreSQL's 65,535).
const maxRollupRows = 5000

// AddRollups adds counts to metric_rollups, and each to its
// AllOrganizations row (one UPSERT per 5,000 rows, all in one database
// transaction and in one key order), so what several instances count merges
// in the same rows, and a flush that fails part-way adds nothing (its
// caller keeps the counts for the next one, which then adds them once).
func (s *Store) AddRollups(ctx context.Context, counts map[RollupKey]int64) error {
	if len(counts) == 0 {
		return nil
	}
	counts = withTotals(counts)
	keys := sortedRollupKeys(counts)
	return s.inTx(ctx, func(tx *Store) error {
		for start := 0; start < len(keys); start += maxRollupRows {
			sql, args := upsertRollupKeys(keys[start:min(start+maxRollupRows, len(keys))], counts)
			if err := tx.db.WithContext(ctx).Exec(sql, args...).Error; err != nil {
				return err
			}
		}
		return nil
	})
}

// countNow adds one to each metric for orgID in the current hour, inside the
// caller's database transaction, so the count commits or rolls back with the
// change it counts.
func (s *Store) countNow(ctx context.Context, orgID int64, metrics ...string) error {
	return s.addRollupDeltas(ctx, nowCounts(s.Now(), orgID, metrics...))
}

// addCountsToBatch adds the same counts as countNow to a write batch.
func addCountsToBatch(b *writeBatch, now time.Time, orgID int64, metrics ...string) {
	addDeltaRows(b, withTotals(nowCounts(now, orgID, metrics...)))
}

// rollupDelta is one row of metric_rollup_deltas: a count a change added,
// not yet folded into metric_rollups.
type rollupDelta struct {
	ID             int64  `gorm:"column:id;primaryKey"`
	Metric         string `gorm:"column:metric"`
	Hour           int64  `gorm:"column:hour"`
	OrganizationID int64  `gorm:"column:organization_id"`
	Bucket         int    `gorm:"column:bucket"`
	Count          int64  `gorm:"column:count"`
}

// TableName implements gorm's tabler.
func (rollupDelta) TableName() string { return "metric_rollup_deltas" }

// addRollupDeltas adds counts (and each to its AllOrganizations row) as
// rows of their own in metric_rollup_deltas, inside the caller's database
// transaction: plain INSERTs, so the writers of one organization (or of
// all) never wait on a shared counter row; the sealer folds them
// (foldRollupDeltas) and the overview reads both tables.
func (s *Store) addRollupDeltas(ctx context.Context, counts map[RollupKey]int64) error {
	if len(counts) == 0 {
		return nil
	}
	var b writeBatch
	addDeltaRows(&b, withTotals(counts))
	return s.execBatch(ctx, &b)
}

// addDeltaRows adds the INSERT of counts' rows (in one key order) into
// metric_rollup_deltas to b.
func addDeltaRows(b *writeBatch, counts map[RollupKey]int64) {
	keys := sortedRollupKeys(counts)
	rows := make([]rollupDelta, len(keys))
	for i, k := range keys {
		rows[i] = rollupDelta{Metric: k.Metric, Hour: k.Hour, OrganizationID: k.OrganizationID, Bucket: k.Bucket, Count: counts[k]}
	}
	addRows(b, maxRollupRows, "metric_rollup_deltas", []string{"metric", "hour", "organization_id", "bucket", "count"}, rows,
		func(d *rollupDelta) []any { return []any{d.Metric, d.Hour, d.OrganizationID, d.Bucket, d.Count} })
}

// maxFoldRows is how many deltas one fold deletes and adds up.
const maxFoldRows = 10000

// foldRollupDeltas moves up to maxFoldRows of the oldest rollup deltas into
// metric_rollups (summed per key, one UPSERT in key order) in the caller's
// database transaction, which holds the sealer's lock: a delta is added
// once, with the DELETE that takes it. It returns how many it folded.
func (s *Store) foldRollupDeltas(ctx context.Context) (int64, error) {
	rows, err := s.db.WithContext(ctx).Raw(`DELETE FROM metric_rollup_deltas WHERE id IN
	(SELECT id FROM metric_rollup_deltas ORDER BY id LIMIT ?)
	RETURNING metric, hour, organization_id, bucket, count`, maxFoldRows).Rows()
	if err != nil {
		return 0, mapDBError(err)
	}
	counts := map[RollupKey]int64{}
	var n int64
	for rows.Next() {
		var d rollupDelta
		if err := rows.Scan(&d.Metric, &d.Hour, &d.OrganizationID, &d.Bucket, &d.Count); err != nil {
			_ = rows.Close()
			return 0, mapDBError(err)
		}
		counts[RollupKey{Metric: d.Metric, Hour: d.Hour, OrganizationID: d.OrganizationID, Bucket: d.Bucket}] += d.Count
		n++
	}
	if err := rows.Close(); err != nil {
		return 0, mapDBError(err)
	}
	if err := rows.Err(); err != nil {
		return 0, mapDBError(err)
	}
	keys := sortedRollupKeys(counts)
	for start := 0; start < len(keys); start += maxRollupRows {
		sql, args := upsertRollupKeys(keys[start:min(start+maxRollupRows, len(keys))], counts)
		if err := s.db.WithContext(ctx).Exec(sql, args...).Error; err != nil {
			return 0, mapDBError(err)
		}
	}
	return n, nil
}

// nowCounts is one for each metric for orgID in now's hour.
func nowCounts(now time.Time, orgID int64, metrics ...string) map[RollupKey]int64 {
	counts := map[RollupKey]int64{}
	for _, m := range metrics {
		counts[RollupKey{Metric: m, Hour: hourOf(now), OrganizationID: orgID, Bucket: noBucket}]++
	}
	return counts
}

// countTransactionChange counts, in the change's database transaction, a
// transaction created and one that became esign_pending.
func (s *Store) countTransactionChange(ctx context.Context, orgID int64, created, becamePending bool) error {
	var metrics []string
	if created {
		metrics = append(metrics, MetricTransactionsCreated)
	}
	if becamePending {
		metrics = append(metrics, MetricTransactionsSent)
	}
	if len(metrics) == 0 {
		return nil
	}
	return s.countNow(ctx, orgID, metrics...)
}
