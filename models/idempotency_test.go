package models_test

import (
	"testing"
	"time"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

func TestIdempotencyClaimsCompleteReplayAndPurge(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := t.Context()
		tenant := env.NewTenant(t, "Acme")
		org := tenant.Org.ID
		if res, err := env.Store.ClaimIdempotencyKey(ctx, org, "POST /x", "k", "h1"); err != nil || res.Replay != nil {
			t.Fatalf("first claim: %v %+v", err, res)
		}
		if _, err := env.Store.ClaimIdempotencyKey(ctx, org, "POST /x", "k", "h1"); err != models.ErrIdempotencyInProgress {
			t.Fatalf("claim while pending: %v", err)
		}
		// A claim left pending past its lease (a crashed process) is taken over.
		env.Clock.Advance(3 * time.Minute)
		if res, err := env.Store.ClaimIdempotencyKey(ctx, org, "POST /x", "k", "h1"); err != nil || res.Replay != nil {
			t.Fatalf("take-over: %v %+v", err, res)
		}
		if err := env.Store.CompleteIdempotencyKey(ctx, org, "POST /x", "k", 201, "application/json", models.RawJSON(`{"ETag":"\"1\""}`), []byte(`{"ok":true}`)); err != nil {
			t.Fatal(err)
		}
		res, err := env.Store.ClaimIdempotencyKey(ctx, org, "POST /x", "k", "h1")
		if err != nil || res.Replay == nil || res.Replay.StatusCode != 201 || string(res.Replay.Body) != `{"ok":true}` {
			t.Fatalf("replay: %v %+v", err, res.Replay)
		}
		if _, err := env.Store.ClaimIdempotencyKey(ctx, org, "POST /x", "k", "h2"); err == nil {
			t.Fatal("another request with the same key was accepted")
		}
		other := env.NewTenant(t, "Other")
		if res, err := env.Store.ClaimIdempotencyKey(ctx, other.Org.ID, "POST /x", "k", "h2"); err != nil || res.Replay != nil {
			t.Fatalf("keys are per organization: %v %+v", err, res)
		}
		env.Clock.Advance(25 * time.Hour)
		rep, err := env.Store.Sweep(ctx, models.Retention{})
		if n := rep.IdempotencyKeys; err != nil || n != 2 {
			t.Fatalf("purged %d, err %v; want 2", n, err)
		}
	})
}
