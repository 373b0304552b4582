package models

import (
	"context"
	"errors"
)

// AdminActor is the signed-in admin a console request acts for. The store's
// operations that change something record the change in the activity log,
// in the same database transaction as the change, when the context carries
// an AdminActor (WithAdminActor): a failed change leaves no activity row and
// a failed activity row undoes the change. API and CLI calls carry none and
// leave no activity row; the audit trail records every change whoever
// makes it (the change's own tx.audit, by the actor of WithAuditActor).
type AdminActor struct {
	UserID int64
	// OrganizationID is the admin's own organization, whose audit trail
	// records the admin's sign-in and sign-out.
	OrganizationID int64
	Email          string
	ClientAddr     string
}

type adminActorKey struct{}

// WithAdminActor returns a context whose changes are recorded for a.
func WithAdminActor(ctx context.Context, a AdminActor) context.Context {
	return context.WithValue(ctx, adminActorKey{}, a)
}

// adminActorFrom reads the admin WithAdminActor put in ctx.
func adminActorFrom(ctx context.Context) (AdminActor, bool) {
	a, ok := ctx.Value(adminActorKey{}).(AdminActor)
	return a, ok
}

// audited runs change in one database transaction together with the
// activity row that records it (action, and the target change returns) for
// the admin in ctx, if any. change writes its own audit event (tx.audit).
func (s *Store) audited(ctx context.Context, action string, change func(tx *Store) (target string, err error)) error {
	return s.inTx(ctx, func(tx *Store) error {
		target, err := change(tx)
		if err != nil {
			return err
		}
		a, ok := adminActorFrom(ctx)
		if !ok {
			return nil
		}
		return tx.RecordActivity(ctx, Activity{UserID: &a.UserID, Actor: a.Email, Action: action, Target: target, ClientAddr: a.ClientAddr})
	})
}

// auditAdmin queues an audit event about the admin in ctx themselves
// (signed out, sessions revoked), in the admin's own organization's trail.
func (s *Store) auditAdmin(ctx context.Context, action, summary string) error {
	a, ok := adminActorFrom(ctx)
	if !ok {
		return errors.New("models: " + action + " needs the admin in its context (WithAdminActor)")
	}
	return s.audit(ctx, AuditEntry{OrganizationID: a.OrganizationID, Action: action, TargetType: "user",
		TargetID: formatInt(a.UserID), Summary: summary + " (" + a.Email + ")"})
}

// roomSender names a room by its sender ("Sam Sender"), else its id.
func roomSender(r *Room) string {
	if r.SenderName != "" {
		return r.SenderName
	}
	return "room " + r.ID
}
