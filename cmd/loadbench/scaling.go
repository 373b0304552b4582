package main

import (
	"context"
	"time"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

// scaling is the in-process timing of Store.ReplaceTransaction at 1×250 and
// 1×2500 tags: the aim is that 10× the tags costs at most 11× the time.
type scaling struct {
	SmallTags, LargeTags int
	SmallN, LargeN       int
	Small, Large         time.Duration // total time of SmallN / LargeN replaces
}

func (s scaling) smallPerOp() time.Duration { return s.Small / time.Duration(max(1, s.SmallN)) }
func (s scaling) largePerOp() time.Duration { return s.Large / time.Duration(max(1, s.LargeN)) }

// Ratio is the time of one large replace over the time of one small one.
func (s scaling) Ratio() float64 {
	return float64(s.largePerOp()) / float64(max(1, s.smallPerOp()))
}

// measureScaling replaces a 250-tag and a 2,500-tag transaction (one
// document each, sequentially, in this process) in alternating rounds, each
// size for at least budget per round and minIters replaces, after one
// unmeasured replace of each.
func measureScaling(ctx context.Context, e *productEnv, rounds int, budget time.Duration) (scaling, error) {
	s := scaling{SmallTags: 250, LargeTags: 2500}
	type job struct {
		id       string
		in       *models.TransactionInput
		minIters int
		n        *int
		total    *time.Duration
	}
	var jobs []job
	for _, size := range []struct {
		tags, minIters int
		n              *int
		total          *time.Duration
	}{{s.SmallTags, 5, &s.SmallN, &s.Small}, {s.LargeTags, 2, &s.LargeN, &s.Large}} {
		body := modelstest.TransactionBody(e.doc, 1, size.tags)
		in, err := models.ParseTransactionInput(body)
		if err != nil {
			return s, err
		}
		ids, err := createTransactions(ctx, e.store, e.actor, body, 1)
		if err != nil {
			return s, err
		}
		if _, err := e.store.ReplaceTransaction(ctx, e.actor, ids[0], in, ""); err != nil { // warm-up
			return s, err
		}
		jobs = append(jobs, job{ids[0], in, size.minIters, size.n, size.total})
	}
	for range rounds {
		for _, j := range jobs {
			var spent time.Duration
			for n := 0; n < j.minIters || spent < budget; n++ {
				if err := ctx.Err(); err != nil {
					return s, err
				}
				t0 := time.Now()
				if _, err := e.store.ReplaceTransaction(ctx, e.actor, j.id, j.in, ""); err != nil {
					return s, err
				}
				spent += time.Since(t0)
				*j.n++
			}
			*j.total += spent
		}
	}
	return s, nil
}
