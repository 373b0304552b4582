package models_test

import (
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/markuproom/markuproom/models"
)

func TestRetryPolicySpreadsByItsJitterAndGivesUpOnce(t *testing.T) {
	t.Parallel()
	p := models.RetryPolicy{Base: 30 * time.Second, Max: time.Hour, Attempts: 3}
	if d := p.Delay(2); d != time.Minute {
		t.Fatalf("without jitter the second retry waits %s, want 1m", d)
	}
	for _, tc := range []struct {
		jitter float64
		want   time.Duration
	}{{0, 30 * time.Second}, {0.5, time.Minute}, {0.75, 75 * time.Second}} {
		p.Jitter = func() float64 { return tc.jitter }
		if d := p.Delay(2); d != tc.want {
			t.Errorf("jitter %v: %s, want %s", tc.jitter, d, tc.want)
		}
	}
	p.Jitter = models.NewJitter(rand.NewPCG(1, 2))
	if d := p.Delay(20); d < 30*time.Minute || d >= 90*time.Minute {
		t.Errorf("a late retry waits %s, outside Max ±50 %%", d)
	}

	failed := models.Outcome{Err: errors.New("502")}
	for _, tc := range []struct {
		out      models.Outcome
		attempts int
		want     models.MessageStatus
	}{
		{models.Outcome{}, 1, models.MessageSent},
		{failed, 1, models.MessagePending},
		{failed, 3, models.MessageDead},
		{models.Outcome{Err: failed.Err, Permanent: true}, 1, models.MessageDead},
		{models.Outcome{Err: failed.Err, Held: true}, 9, models.MessageHeld},
	} {
		if got := p.Next(tc.out, tc.attempts); got != tc.want {
			t.Errorf("Next(%+v, %d) = %s, want %s", tc.out, tc.attempts, got, tc.want)
		}
	}
}

func TestALeasedPendingMessageIsSending(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	later, earlier := now.Add(time.Minute), now.Add(-time.Minute)
	for _, tc := range []struct {
		m    models.OutboxMessage
		want models.MessageStatus
	}{
		{models.OutboxMessage{Status: models.MessagePending, LeaseUntil: &later}, models.MessageSending},
		{models.OutboxMessage{Status: models.MessagePending, LeaseUntil: &earlier}, models.MessagePending},
		{models.OutboxMessage{Status: models.MessagePending}, models.MessagePending},
		{models.OutboxMessage{Status: models.MessageDead, LeaseUntil: &later}, models.MessageDead},
	} {
		if got := tc.m.StatusAt(now); got != tc.want {
			t.Errorf("%+v: %s, want %s", tc.m, got, tc.want)
		}
	}
}
