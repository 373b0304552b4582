package models

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/markuproom/markuproom/models/review"
	"github.com/markuproom/markuproom/web/i18n"
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
			p.Add("#/"+CheckValid, "checklist_unmet", "problem.room.checklist_unmet", "detail", unmetDetail(err))
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

// validationProblems are a failed validation's details in English, for
// CompleteRoom's refusal.
func validationProblems(err error) []string {
	var ve *ValidationError
	if !errors.As(err, &ve) {
		return []string{englishProblem(Msg("problem.room.not_checked"))}
	}
	var out []string
	for _, f := range ve.Errors {
		out = append(out, englishProblem(f.Message))
	}
	if len(out) == 0 {
		out = append(out, englishProblem(ve.Message))
	}
	return out
}

// unmetDetail says in English why the transaction fails its validation,
// for CompleteRoom's refusal (the API's English, byte for byte as before
// the checklist's items became values).
func unmetDetail(invalid error) string {
	return "The transaction passes validation: " + strings.Join(validationProblems(invalid), " ")
}

// englishProblem is m in English, for unmetDetail's refusal, which keeps
// the API's English (docs/decisions.md, "Problems as a catalog id and
// arguments": the one place models still word a message; the handlers'
// problem writer does it the same way).
func englishProblem(m Message) string {
	args := make([]any, len(m.Args))
	for i, a := range m.Args {
		switch v := a.(type) {
		case int:
			a = strconv.Itoa(v)
		case int64:
			a = strconv.FormatInt(v, 10)
		case Quoted:
			a = strconv.Quote(string(v))
		case Message:
			a = englishProblem(v)
		}
		if i%2 == 0 {
			a = m.Args[i]
		}
		args[i] = a
	}
	return i18n.English().T(m.ID, args...)
}
