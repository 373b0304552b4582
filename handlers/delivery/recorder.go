package delivery

import (
	"context"

	"github.com/markuproom/markuproom/models"
)

// recorder writes the outcomes of a batch's sends with group commit: the
// outcomes that arrive while one write runs are written together by the
// next, so a busy batch costs a few statements, not one per message, and a
// lone outcome is still written at once.
type recorder struct {
	w    *Worker
	ctx  context.Context
	in   chan models.MessageOutcome
	done chan struct{}
}

// startRecorder starts a recorder for a batch of up to n messages.
func (w *Worker) startRecorder(ctx context.Context, n int) *recorder {
	r := &recorder{w: w, ctx: ctx, in: make(chan models.MessageOutcome, max(n, 1)), done: make(chan struct{})}
	go r.run()
	return r
}

// add hands one outcome over; it never blocks for a batch's own messages.
func (r *recorder) add(o models.MessageOutcome) { r.in <- o }

// close waits until every outcome handed over is written.
func (r *recorder) close() {
	close(r.in)
	<-r.done
}

func (r *recorder) run() {
	defer close(r.done)
	for first := range r.in {
		batch := []models.MessageOutcome{first}
	more:
		for {
			select {
			case o, ok := <-r.in:
				if !ok {
					break more
				}
				batch = append(batch, o)
			default:
				break more
			}
		}
		if err := r.w.store.FinishMessages(r.ctx, batch, r.w.cfg.Retry); err != nil {
			r.w.log.Error("outbox: recording outcomes failed", "messages", len(batch), "error", err)
		}
	}
}
