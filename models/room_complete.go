package models

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/markuproom/markuproom/web/i18n"
)

// EventRoomCompleted records that a Markup Room created the e-signature session.
const EventRoomCompleted = "room_completed"

// Checklist item ids, stable for the page and its tests.
const (
	CheckDocuments    = "documents"
	CheckParticipants = "participants"
	CheckEveryoneTags = "participant-tags"
	CheckTagsAssigned = "tags-assigned"
	CheckValid        = "valid"
)

// ChecklistItem is one condition for creating the e-signature session, as
// values: pages word it from its id and these (docs/i18n.md), and
// CompleteRoom's refusal says it in English (unmetDetail).
type ChecklistItem struct {
	ID string
	OK bool
	// Advisory marks a warning: shown when not OK, but it does not block
	// the session (checklistWarnings).
	Advisory bool
	// Names and Count are what an unmet item speaks of: the participants
	// without a tag, the documents without one; the tags without a signer,
	// the undecided suggested fields.
	Names []string
	Count int
	// Invalid is why the transaction fails its validation (CheckValid): a
	// *ValidationError, or another error when it could not be checked.
	Invalid error
}

// RoomChecklist tells whether a room's transaction is ready for signing: at
// least one document and one participant, every participant with a tag,
// every tag with a signer, and operation A's validation passing; then the
// warnings that do not block (checklistWarnings).
func (s *Store) RoomChecklist(ctx context.Context, ws *RoomWorkspace) []ChecklistItem {
	t := ws.Transaction
	docs := ChecklistItem{ID: CheckDocuments, OK: len(t.Documents) > 0}
	people := ChecklistItem{ID: CheckParticipants, OK: len(t.Participants) > 0}
	tagged := map[string]int{}
	unassigned := map[int]int{}
	for _, d := range t.Documents {
		for _, tag := range d.Tags {
			if tag.SignerID == "" {
				unassigned[tag.Page]++
			} else {
				tagged[tag.SignerID]++
			}
		}
	}
	everyone := ChecklistItem{ID: CheckEveryoneTags, OK: true}
	for _, p := range t.Participants {
		if tagged[p.ParticipantID] == 0 {
			everyone.OK = false
			everyone.Names = append(everyone.Names, p.FullName())
		}
	}
	assigned := ChecklistItem{ID: CheckTagsAssigned, OK: len(unassigned) == 0, Count: sumValues(unassigned)}
	valid := ChecklistItem{ID: CheckValid, OK: true}
	if docs.OK && people.OK && assigned.OK {
		in := inputFromTransaction(t)
		in.Status = StatusESignPending
		if _, err := s.prepareTransaction(ctx, Actor{OrganizationID: t.OrganizationID}, t.ID, in); err != nil {
			valid.OK, valid.Invalid = false, err
		}
	}
	return append([]ChecklistItem{docs, people, everyone, assigned, valid}, checklistWarnings(ws)...)
}

// ChecklistDone tells whether every item of a checklist is met (a warning,
// an advisory item, does not count).
func ChecklistDone(items []ChecklistItem) bool {
	for _, it := range items {
		if !it.OK && !it.Advisory {
			return false
		}
	}
	return true
}

// CompleteRoom creates the e-signature session of a room: its transaction
// becomes esign_pending through the same replace as PUT /transactions/{id}
// (history recorded, invitations queued where asked) and the room becomes
// completed, in one database transaction. An unmet checklist is a 422
// naming each unmet item.
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
		ws := &RoomWorkspace{Room: room, Transaction: old}
		items := tx.RoomChecklist(ctx, ws)
		if !ChecklistDone(items) {
			var p Problems
			for _, it := range items {
				if !it.OK && !it.Advisory {
					p.Add("#/"+it.ID, "checklist_unmet", "problem.room.checklist_unmet", "detail", unmetDetail(it))
				}
			}
			return p.Err(KindUnprocessable, "problem.summary.session_not_ready")
		}
		in := inputFromTransaction(old)
		in.Status = StatusESignPending
		in.HasNotify, in.NotifyEmail = true, &notifyEmail
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
		if err := tx.writeReplacement(ctx, actor, old, t, completed); err != nil {
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

// unmetDetail says in English what an unmet checklist item lacks, for
// CompleteRoom's refusal (the API's English, byte for byte as before items
// became values): the item's condition, then each thing to fix.
func unmetDetail(it ChecklistItem) string {
	var label string
	var problems []string
	switch it.ID {
	case CheckDocuments:
		label, problems = "At least one document", []string{"Add a document to the room."}
	case CheckParticipants:
		label, problems = "At least one participant", []string{"Add the people who will sign."}
	case CheckEveryoneTags:
		label = "Every participant has at least one tag"
		for _, name := range it.Names {
			problems = append(problems, name+" has no tag yet.")
		}
	case CheckTagsAssigned:
		label = "Every tag has a signer"
		problems = []string{fmt.Sprintf("%d %s without a signer: select %s and choose its signer.", it.Count, plural(it.Count, "tag", "tags"), plural(it.Count, "it", "each"))}
	case CheckValid:
		label, problems = "The transaction passes validation", validationProblems(it.Invalid)
	case CheckDocumentsTagged:
		label = "Every document has tags"
		for _, title := range it.Names {
			problems = append(problems, fmt.Sprintf("“%s” has no tags: its signers are not asked to sign anything on it.", title))
		}
	case CheckSuggestionsDecided:
		label = "Every suggested field accepted or dismissed"
		problems = []string{fmt.Sprintf("%d suggested %s not accepted or dismissed.", it.Count, plural(it.Count, "field", "fields"))}
	}
	return label + ": " + strings.Join(problems, " ")
}

func sumValues(m map[int]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
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
