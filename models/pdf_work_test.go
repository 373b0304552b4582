package models_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/markuproom/markuproom/models"
)

func TestPDFWorkSlots(t *testing.T) {
	t.Parallel()
	const wait = 60 * time.Millisecond
	w := models.NewPDFWork(models.PDFWorkOptions{Concurrency: 2, Wait: wait})
	ctx := context.Background()
	r1, err1 := w.Acquire(ctx)
	r2, err2 := w.Acquire(ctx)
	if err1 != nil || err2 != nil {
		t.Fatalf("two slots: %v, %v", err1, err2)
	}

	// Busy: refused after the wait, with the wait as the retry hint.
	start := time.Now()
	_, err := w.Acquire(ctx)
	var busy *models.PDFBusyError
	if !errors.Is(err, models.ErrPDFBusy) || !errors.As(err, &busy) || busy.RetryAfter != wait {
		t.Fatalf("third Acquire = %v, want a PDFBusyError", err)
	}
	if took := time.Since(start); took < wait || took > 5*time.Second {
		t.Errorf("the refusal came after %s, want about %s", took, wait)
	}

	// A caller that gives up first gets its own context's error.
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := w.Acquire(cancelled); !errors.Is(err, context.Canceled) {
		t.Errorf("Acquire with a cancelled context = %v", err)
	}

	// A slot released while someone waits goes to the waiter: a pool of one
	// slot whose wait no scheduling delay outlasts.
	patient := models.NewPDFWork(models.PDFWorkOptions{Concurrency: 1, Wait: time.Minute})
	held, err := patient.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan error, 1)
	go func() {
		r, err := patient.Acquire(ctx)
		if err == nil {
			defer r()
		}
		got <- err
	}()
	// Deliberately fixed: nothing tells that the goroutine waits inside
	// Acquire; released before or after it starts waiting, the slot is its.
	time.Sleep(20 * time.Millisecond)
	held()
	if err := <-got; err != nil {
		t.Fatalf("the waiter did not get the released slot: %v", err)
	}
	r1()
	// And a released slot is free again afterwards.
	r2()
	for range 2 {
		r, err := w.Acquire(ctx)
		if err != nil {
			t.Fatalf("after release: %v", err)
		}
		defer r()
	}
}

func TestPDFWorkDefaults(t *testing.T) {
	t.Parallel()
	w := models.NewPDFWork(models.PDFWorkOptions{})
	var releases []func()
	for range models.DefaultPDFConcurrency {
		r, err := w.Acquire(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		releases = append(releases, r)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := w.Acquire(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a third slot with the default concurrency: %v", err)
	}
	for _, r := range releases {
		r()
	}
}
