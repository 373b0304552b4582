package models

import (
	"context"
	"errors"
	"strings"

	"github.com/markuproom/markuproom/models/review"
)

// EventRoomCompleted records that a Markup Room created the e-signature session.
const EventRoomCompleted = "room_completed"

// Ids of the session check's own items, besides the review's findings:
// stable for the page and its tests.
const (
	// CheckValid is operation A's validation of the transaction.
	CheckValid = "valid"
)

// SessionCheck is what stands between a room and its e-signature session:
// the pre-send check's findings (docs/review.md), operation A's validation
// of the transaction, and the suggested fields still undecided. Values,
// worded by the room's view.
type SessionCheck struct {
	Review *TransactionReview
	// Invalid is why the transaction fails its validation: a
	// *ValidationError, or another error when it could not be checked; nil
	// when it passes, or was not checked (a blocking finding comes first).
	Invalid error
	// Undecided counts the suggested fields neither accepted nor
	// dismissed: a warning.
	Undecided int
}

// Blocked tells whether the session cannot be created: a blocking finding,
// or a transaction that fails its validation.
func (c *SessionCheck) Blocked() bool { return c.Review.Blocked() || c.Invalid != nil }

// Warnings counts what is asked about once before the session is created:
// the warning findings, and the undecided suggested fields as one.
func (c *SessionCheck) Warnings() int {
	n := 0
	for _, f := range c.Review.Findings {
		if f.Severity == review.Warning {
			n++
		}
	}
	if c.Undecided > 0 {
		n++
	}
	return n
}

// RoomCheck runs the session check of a room as it is now: the review with
// printed words (the text findings too), then, when nothing blocks, the
// validation the session's replace will run.
func (s *Store) RoomCheck(ctx context.Context, ws *RoomWorkspace) (*SessionCheck, error) {
	r, err := s.reviewOf(ctx, ws.Transaction, readWords)
	if err != nil {
		return nil, err
	}
	c := &SessionCheck{Review: r, Undecided: UndecidedSuggestions(ws)}
	if !r.Blocked() {
		c.Invalid = s.validateForSession(ctx, ws.Transaction)
	}
	return c, nil
}

// validateForSession runs operation A's validation of t as the session's
// replace will: nil when it passes.
func (s *Store) validateForSession(ctx context.Context, t *Transaction) error {
	in := inputFromTransaction(t)
	in.Status = StatusESignPending
	_, err := s.prepareTransaction(ctx, Actor{OrganizationID: t.OrganizationID}, t.ID, in)
	return err
}

// ReviewBlockedError refuses the e-signature session: the pre-send check
// found what blocks it (docs/review.md). The problem writer words it: 422,
// code review_blocked, the blocking findings listed.
type ReviewBlockedError struct {
	Review *TransactionReview
}

// Error implements error: the blocking findings' codes, for a log line.
func (e *ReviewBlockedError) Error() string {
	var codes []string
	for _, f := range e.Review.Findings {
		if f.Severity == review.Blocking {
			codes = append(codes, f.Code)
		}
	}
	return "review blocked: " + strings.Join(codes, ", ")
}

// CompleteRoom creates the e-signature session of a room: its transaction
// becomes esign_pending through the same replace as PUT /transactions/{id}
// (history recorded, invitations queued where asked) and the room becomes
// completed, in one database transaction. Blocking findings of the
// pre-send check are a 422 ReviewBlockedError; a transaction that fails
// its validation a 422 naming each problem.
//
// notifyEmail is the staff's choice in the dialog: e-mail each participant
// an invitation (the transaction's notifyParticipants.email becomes it).
func (s *Store) CompleteRoom(ctx context.Context, roomID string, notifyEmail bool) (*Transaction, error) {
	var out *Transaction
	err := s.inTx(ctx, func(tx *Store) error {
		room, old, err := tx.lockRoom(ctx, roomID, "")
		if err != nil {
			return err
		}
		if err := tx.loadChildren(ctx, old); err != nil {
			return err
		}
		// Blocking findings need no printed words: the text ones only warn.
		r, err := tx.reviewOf(ctx, old, noWords)
		if err != nil {
			return err
		}
		if r.Blocked() {
			return &ReviewBlockedError{Review: r}
		}
		if err := tx.validateForSession(ctx, old); err != nil {
			var p Problems
			p.Add("#/"+CheckValid, "checklist_unmet", "problem.room.checklist_unmet", "problems", validationProblems(err))
			return p.Err(KindUnprocessable, "problem.summary.session_not_ready")
		}
		in := inputFromTransaction(old)
		in.Status = StatusESignPending
		in.HasNotify, in.NotifyEmail = true, &notifyEmail
		actor := roomActor(ctx, room)
		t, err := tx.prepareTransaction(ctx, actor, old.ID, in)
		if err != nil {
			return err
		}
		for i := range t.Participants {
			room.Config.ApplyParticipantRules(&t.Participants[i])
		}
		completed := func(t *Transaction) WebhookData {
			return RoomCompletedData{RoomID: room.ID, TransactionID: t.ID, ReferenceID: t.ReferenceID, Status: t.Status, Version: t.Version}
		}
		if err := tx.writeReplacement(ctx, actor, old, t, ReasonRoomCompleted, completed); err != nil {
			return err
		}
		now := tx.Now()
		res := tx.db.WithContext(ctx).Model(&Room{}).Where("id = ? AND status = ?", room.ID, RoomOpen).
			Updates(map[string]any{"status": RoomCompleted, "completed_at": now, "updated_at": now})
		if res.Error != nil {
			return mapDBError(res.Error)
		}
		if res.RowsAffected != 1 {
			return ErrRoomCompleted
		}
		if err := tx.countNow(ctx, room.OrganizationID, MetricRoomsCompleted); err != nil {
			return err
		}
		out = t
		return tx.recordEvent(ctx, t, actor, RoomCompletedSummary{
			Room: room.ID, Documents: t.DocumentCount, Tags: t.TagCount, Participants: t.ParticipantCount,
		})
	})
	return out, err
}

// validationProblems are what a failed validation names, for CompleteRoom's
// refusal: each field's problem, else the error's own.
func validationProblems(err error) Sentences {
	var ve *ValidationError
	if !errors.As(err, &ve) {
		return Sentences{Msg("problem.room.not_checked")}
	}
	var out Sentences
	for _, f := range ve.Errors {
		out = append(out, f.Message)
	}
	if len(out) == 0 {
		out = append(out, ve.Message)
	}
	return out
}
