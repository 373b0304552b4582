package main

import (
	"context"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// auditSealInterval is how often the server runs the audit sealer: an
// event is chained within about this long after its change commits
// (docs/decisions.md, "Audit sealing").
const auditSealInterval = 250 * time.Millisecond

// auditSealTimeout bounds the sealing of what is left at shutdown and after
// a command.
const auditSealTimeout = 10 * time.Second

// startAuditSealer runs the audit sealer every auditSealInterval and
// registers the gauge of the events it left unsealed; the returned stop
// ends the loop and seals what the server's last requests wrote. A failing
// pass is logged once until a pass succeeds again (the events wait, nothing
// is lost).
func (a *app) startAuditSealer(ctx context.Context, registry prometheus.Registerer) (stop func()) {
	registry.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "markuproom_audit_unsealed_events",
		Help: "Audit events written but not yet chained by the sealer, after its last pass on this instance.",
	}, func() float64 { return float64(a.store.UnsealedAuditEvents()) }))
	runCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	go func() {
		defer close(done)
		failing := false
		t := time.NewTicker(auditSealInterval)
		defer t.Stop()
		for {
			select {
			case <-runCtx.Done():
				return
			case <-t.C:
			}
			_, err := a.store.SealAudit(runCtx)
			switch {
			case err != nil && runCtx.Err() == nil && !failing:
				failing = true
				a.log.Warn("audit sealer: the pass failed; events wait for the next", "error", err)
			case err == nil && failing:
				failing = false
				a.log.Info("audit sealer: sealing again")
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			cancel()
			<-done
			a.sealAuditBacklog()
		})
	}
}

// sealAuditBacklog seals the events this process (or any) left unsealed,
// within auditSealTimeout: the server's last step, and every command's, so
// a command's events do not wait for a server to chain them.
func (a *app) sealAuditBacklog() {
	ctx, cancel := context.WithTimeout(context.Background(), auditSealTimeout)
	defer cancel()
	if err := a.store.SealAuditBacklog(ctx); err != nil {
		a.log.Warn("audit sealer: events left unsealed", "error", err)
	}
}
