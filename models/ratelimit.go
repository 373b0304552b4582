package models

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"
	"time"
)

// RateLimit is the policy of one token bucket: it holds at most Burst
// tokens, gains PerSecond tokens a second, and every request takes one.
type RateLimit struct {
	PerSecond float64
	Burst     int
}

// Valid reports whether the policy admits anything: a positive, finite rate and a burst of at least 1.
func (l RateLimit) Valid() bool {
	return l.PerSecond > 0 && !math.IsInf(l.PerSecond, 0) && l.Burst >= 1
}

// RateBucket is one bucket a request counts against, named by Key
// (such as "api:42" for API token 42).
type RateBucket struct {
	Key   string
	Limit RateLimit
}

// RateDecision is the outcome of taking a token for one request.
type RateDecision struct {
	// Key names the bucket that decided.
	Key string
	// Allowed tells whether the request got its token.
	Allowed bool
	// Limit is the bucket's size (its burst).
	Limit int
	// Remaining is the whole tokens left in the bucket after this request.
	Remaining int
	// RetryAfter is how long until the bucket holds a token again; 0 when Allowed.
	RetryAfter time.Duration
	// Reset is how long until the bucket is full again.
	Reset time.Duration
}

// rateLimitRow is a stored token bucket. Its tokens are the content at
// UpdatedUS (microseconds since the Unix epoch, by the servers' clocks).
type rateLimitRow struct {
	BucketKey string  `gorm:"column:bucket_key;primaryKey"`
	Tokens    float64 `gorm:"column:tokens"`
	Rate      float64 `gorm:"column:rate"`
	Burst     float64 `gorm:"column:burst"`
	UpdatedUS int64   `gorm:"column:updated_us"`
	Allowed   bool    `gorm:"column:allowed"`
}

// TableName implements gorm's Tabler.
func (rateLimitRow) TableName() string { return "rate_limits" }

// TakeRateTokens takes one token from each bucket, in one database statement
// so that every server instance on the database shares the buckets, and
// returns the decision of the bucket that refused (the longest wait), or of
// the bucket with the fewest tokens left when all allowed. A bucket that
// allowed keeps its token taken even if another refused.
//
// When the statement fails (SQLite locked past its busy timeout, the
// database unreachable), buckets of this process with the same policies
// decide instead (localRateBuckets): the limits then hold per instance
// rather than not at all. Only invalid buckets and the end of ctx are errors.
//
// A refusal is also remembered in this process until the refused bucket
// gains a token again: during that time TakeRateTokens refuses the bucket
// without asking the database. Since only time adds tokens, the database
// could not have answered otherwise, so the shared count is never exceeded.
func (s *Store) TakeRateTokens(ctx context.Context, buckets ...RateBucket) (RateDecision, error) {
	if len(buckets) == 0 {
		return RateDecision{Allowed: true}, nil
	}
	now := s.now()
	if d, refused := s.refusals.check(buckets, now); refused {
		return d, nil
	}
	values := make([]string, len(buckets))
	args := make([]any, 0, 5*len(buckets))
	seen := make(map[string]bool, len(buckets))
	for i, b := range buckets {
		if !b.Limit.Valid() || b.Key == "" || seen[b.Key] {
			return RateDecision{}, fmt.Errorf("rate bucket %q: empty or repeated key or invalid limit %+v", b.Key, b.Limit)
		}
		seen[b.Key] = true
		values[i] = "(?, ?, ?, ?, ?, TRUE)"
		args = append(args, b.Key, float64(b.Limit.Burst)-1, b.Limit.PerSecond, float64(b.Limit.Burst), now.UnixMicro())
	}
	var rows []rateLimitRow
	err := s.db.WithContext(ctx).Raw(s.takeRateSQL(strings.Join(values, ", ")), args...).Scan(&rows).Error
	if err != nil {
		if ctx.Err() != nil {
			return RateDecision{}, fmt.Errorf("take rate tokens: %w", ctx.Err())
		}
		// The table cannot answer (locked, unreachable): this process's own
		// buckets stand in, so the limits still hold per instance.
		s.log.WarnContext(ctx, "rate limits taken in this process: the rate_limits table did not answer", "error", mapDBError(err))
		return s.localRates.take(buckets, now), nil
	}
	byKey := make(map[string]rateLimitRow, len(rows))
	for _, r := range rows {
		byKey[r.BucketKey] = r
	}
	var out RateDecision
	for i, b := range buckets {
		r, ok := byKey[b.Key]
		if !ok {
			return RateDecision{}, errors.New("take rate tokens: the database returned no row for " + b.Key)
		}
		d := rateDecision(b, r.Tokens, r.Allowed)
		if !d.Allowed {
			s.refusals.record(b.Key, d, now)
		}
		if i == 0 || moreRestrictive(d, out) {
			out = d
		}
	}
	return out, nil
}

// RateRefused tells, without asking the database, whether this process saw
// one of the buckets refuse a request so recently that it still has no
// token; callers use it to refuse before doing costly work.
func (s *Store) RateRefused(buckets ...RateBucket) (RateDecision, bool) {
	return s.refusals.check(buckets, s.now())
}

// PurgeFullRateBuckets deletes buckets that have refilled completely: a
// missing bucket is a full one, so this changes no decision.
func (s *Store) PurgeFullRateBuckets(ctx context.Context) (int64, error) {
	res := s.db.WithContext(ctx).Exec(
		"DELETE FROM rate_limits WHERE tokens + (? - updated_us) * rate / 1000000.0 >= burst",
		s.now().UnixMicro())
	return res.RowsAffected, mapDBError(res.Error)
}

// takeRateSQL is the upsert that refills and takes from every bucket listed
// in values. The refill is computed in SQL from the stored row, so that
// concurrent takes from several instances serialize on the row lock and
// each sees the result of the one before. A clock behind the stored time
// adds nothing (never a negative refill) and leaves the stored time as is.
func (s *Store) takeRateSQL(values string) string {
	least, greatest := "LEAST", "GREATEST"
	if s.dialect != DialectPostgres {
		least, greatest = "MIN", "MAX" // SQLite's scalar forms
	}
	refill := fmt.Sprintf("%s(excluded.burst, b.tokens + %s(0, excluded.updated_us - b.updated_us) * excluded.rate / 1000000.0)", least, greatest)
	return `INSERT INTO rate_limits AS b (bucket_key, tokens, rate, burst, updated_us, allowed) VALUES ` + values + `
ON CONFLICT (bucket_key) DO UPDATE SET
    tokens = CASE WHEN ` + refill + ` >= 1 THEN ` + refill + ` - 1 ELSE ` + refill + ` END,
    allowed = (` + refill + ` >= 1),
    rate = excluded.rate,
    burst = excluded.burst,
    updated_us = ` + greatest + `(b.updated_us, excluded.updated_us)
RETURNING bucket_key, tokens, allowed`
}

// rateDecision turns a bucket's content after a take into a decision.
func rateDecision(b RateBucket, tokens float64, allowed bool) RateDecision {
	l := b.Limit
	d := RateDecision{Key: b.Key, Allowed: allowed, Limit: l.Burst, Remaining: max(0, int(math.Floor(tokens)))}
	if !allowed {
		d.RetryAfter = secondsDuration((1 - tokens) / l.PerSecond)
	}
	d.Reset = secondsDuration((float64(l.Burst) - tokens) / l.PerSecond)
	return d
}

// moreRestrictive tells whether a should be reported instead of b: a
// refusal over an allowance, the longer wait between refusals, the fewer
// tokens left between allowances.
func moreRestrictive(a, b RateDecision) bool {
	switch {
	case a.Allowed != b.Allowed:
		return !a.Allowed
	case !a.Allowed:
		return a.RetryAfter > b.RetryAfter
	default:
		return a.Remaining < b.Remaining
	}
}

func secondsDuration(s float64) time.Duration {
	if s <= 0 || math.IsNaN(s) {
		return 0
	}
	return time.Duration(math.Ceil(s * float64(time.Second)))
}

// maxRateRefusals bounds the refusals remembered by one process.
const maxRateRefusals = 10000

// rateRefusals remembers, per bucket key, until when a bucket this process
// saw refuse will still be empty.
type rateRefusals struct {
	mu sync.Mutex
	m  map[string]rateRefusal
}

type rateRefusal struct {
	at    time.Time
	until time.Time
	d     RateDecision
}

func newRateRefusals() *rateRefusals {
	return &rateRefusals{m: map[string]rateRefusal{}}
}

// check returns the refusal of the first listed bucket still refused at now.
func (r *rateRefusals) check(buckets []RateBucket, now time.Time) (RateDecision, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.m) == 0 {
		return RateDecision{}, false
	}
	for _, b := range buckets {
		f, ok := r.m[b.Key]
		if !ok {
			continue
		}
		if !now.Before(f.until) {
			delete(r.m, b.Key)
			continue
		}
		d := f.d
		d.RetryAfter = f.until.Sub(now)
		d.Reset = max(d.RetryAfter, f.d.Reset-now.Sub(f.at))
		return d, true
	}
	return RateDecision{}, false
}

// record remembers that key refused at now with decision d.
func (r *rateRefusals) record(key string, d RateDecision, now time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.m) >= maxRateRefusals {
		for k, f := range r.m {
			if !now.Before(f.until) {
				delete(r.m, k)
			}
		}
		if len(r.m) >= maxRateRefusals {
			clear(r.m) // forgetting only costs database statements, never correctness
		}
	}
	r.m[key] = rateRefusal{at: now, until: now.Add(d.RetryAfter), d: d}
}

// maxLocalRateBuckets bounds the buckets one process keeps while the
// rate_limits table cannot answer.
const maxLocalRateBuckets = 10000

// localRateBuckets are token buckets in this process's memory, with the
// same policies and arithmetic as the rate_limits table: they stand in for
// it while it cannot answer (TakeRateTokens).
type localRateBuckets struct {
	mu sync.Mutex
	m  map[string]localRateBucket
}

type localRateBucket struct {
	tokens, rate, burst float64
	updated             time.Time
}

func newLocalRateBuckets() *localRateBuckets {
	return &localRateBuckets{m: map[string]localRateBucket{}}
}

// take refills every bucket to now, takes a token from each that has one
// (a bucket that allowed keeps its token taken even if another refused, as
// in the table) and returns the decision TakeRateTokens reports.
func (l *localRateBuckets) take(buckets []RateBucket, now time.Time) RateDecision {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.m)+len(buckets) > maxLocalRateBuckets {
		l.evictFull(now)
	}
	var out RateDecision
	for i, b := range buckets {
		burst := float64(b.Limit.Burst)
		tokens := burst
		if cur, ok := l.m[b.Key]; ok {
			tokens = min(burst, cur.tokens+max(0, now.Sub(cur.updated).Seconds())*b.Limit.PerSecond)
		}
		allowed := tokens >= 1
		if allowed {
			tokens--
		}
		l.m[b.Key] = localRateBucket{tokens: tokens, rate: b.Limit.PerSecond, burst: burst, updated: now}
		d := rateDecision(b, tokens, allowed)
		if i == 0 || moreRestrictive(d, out) {
			out = d
		}
	}
	return out
}

// evictFull forgets the buckets that have refilled (a missing bucket is a
// full one, so no decision changes); when that is not enough, the oldest
// half goes, which can only grant a burst again, never refuse wrongly.
func (l *localRateBuckets) evictFull(now time.Time) {
	for k, b := range l.m {
		if b.tokens+max(0, now.Sub(b.updated).Seconds())*b.rate >= b.burst {
			delete(l.m, k)
		}
	}
	if len(l.m) < maxLocalRateBuckets/2 {
		return
	}
	keys := make([]string, 0, len(l.m))
	for k := range l.m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return l.m[keys[i]].updated.Before(l.m[keys[j]].updated) })
	for _, k := range keys[:len(keys)/2] {
		delete(l.m, k)
	}
}
