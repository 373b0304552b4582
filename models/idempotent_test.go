package models_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

// TestIdempotentRunsOnceAndReplays drives the whole protocol through its one
// call: the first request runs and is kept, a retry replays it, another
// fingerprint is refused, an answer worth retrying or a failed run gives the
// key back, and a retry while the first runs waits for its answer.
func TestIdempotentRunsOnceAndReplays(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := t.Context()
		org := env.NewTenant(t, "Acme").Org.ID
		req := func(key, fingerprint string) models.IdempotentRequest {
			return models.IdempotentRequest{OrganizationID: org, Scope: "POST /x", Key: key, Fingerprint: []byte(fingerprint)}
		}
		runs := 0
		answer := func(status int) func(context.Context) (models.StoredResponse, error) {
			return func(context.Context) (models.StoredResponse, error) {
				runs++
				return models.StoredResponse{StatusCode: status, ContentType: "application/json", Headers: map[string]string{"ETag": `"1"`}, Body: []byte(`{"run":true}`)}, nil
			}
		}

		first, replayed, err := env.Store.Idempotent(ctx, req("k", "a"), answer(201))
		if err != nil || replayed || first.StatusCode != 201 || runs != 1 {
			t.Fatalf("first: %+v replayed=%v err=%v runs=%d", first, replayed, err, runs)
		}
		again, replayed, err := env.Store.Idempotent(ctx, req("k", "a"), answer(201))
		if err != nil || !replayed || runs != 1 || again.StatusCode != 201 || string(again.Body) != `{"run":true}` ||
			again.Headers["ETag"] != `"1"` || again.ContentType != "application/json" {
			t.Fatalf("replay: %+v replayed=%v err=%v runs=%d", again, replayed, err, runs)
		}
		var ve *models.ValidationError
		if _, _, err := env.Store.Idempotent(ctx, req("k", "b"), answer(201)); !errors.As(err, &ve) || ve.Errors[0].Code != "idempotency_key_reused" {
			t.Fatalf("another fingerprint: %v", err)
		}
		if _, _, err := env.Store.Idempotent(ctx, req("bad\nkey", "a"), answer(201)); !errors.As(err, &ve) || ve.Errors[0].Code != "invalid_idempotency_key" {
			t.Fatalf("a key with a control character: %v", err)
		}

		// Answers worth retrying, and a failed run, give the key back.
		for _, status := range []int{500, 503, 409, 429, 499} {
			runs = 0
			for range 2 {
				if _, replayed, err := env.Store.Idempotent(ctx, req("retry", "a"), answer(status)); err != nil || replayed {
					t.Fatalf("status %d: replayed=%v err=%v", status, replayed, err)
				}
			}
			if runs != 2 {
				t.Fatalf("status %d ran %d times in two requests, want 2", status, runs)
			}
		}
		boom := errors.New("boom")
		if _, _, err := env.Store.Idempotent(ctx, req("failed", "a"), func(context.Context) (models.StoredResponse, error) {
			return models.StoredResponse{}, boom
		}); !errors.Is(err, boom) {
			t.Fatalf("failed run: %v", err)
		}
		if _, replayed, err := env.Store.Idempotent(ctx, req("failed", "a"), answer(200)); err != nil || replayed {
			t.Fatalf("after a failed run the key is free: replayed=%v err=%v", replayed, err)
		}

		// A retry while the first request runs waits for its answer.
		started, release := make(chan struct{}), make(chan struct{})
		done := make(chan error, 1)
		go func() {
			_, _, err := env.Store.Idempotent(ctx, req("slow", "a"), func(context.Context) (models.StoredResponse, error) {
				close(started)
				<-release
				return models.StoredResponse{StatusCode: 200, Body: []byte("slow")}, nil
			})
			done <- err
		}()
		<-started
		waited := make(chan models.StoredResponse, 1)
		go func() {
			got, replayed, err := env.Store.Idempotent(ctx, req("slow", "a"), answer(200))
			if err != nil || !replayed {
				t.Errorf("the waiting retry: replayed=%v err=%v", replayed, err)
			}
			waited <- got
		}()
		// Most often the retry is waiting by now; if not, it replays all the same.
		time.Sleep(300 * time.Millisecond)
		close(release)
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if got := <-waited; string(got.Body) != "slow" {
			t.Fatalf("the waiting retry got %q, want the first answer", got.Body)
		}
	})
}
