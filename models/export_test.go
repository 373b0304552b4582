package models

import (
	"context"
	"errors"

	"gorm.io/gorm"
)

// MaskSQLLiterals exposes maskSQLLiterals to the external tests.
var MaskSQLLiterals = maskSQLLiterals

// FailActivityWrites makes every insert into the activity log of s fail
// until the returned function is called (a failed audit row, for tests).
func FailActivityWrites(s *Store) (restore func()) {
	name := "test:fail_activity_writes"
	_ = s.db.Callback().Create().Before("gorm:create").Register(name, func(db *gorm.DB) {
		if db.Statement.Table == "admin_activity" {
			_ = db.AddError(errors.New("the activity log refused the row"))
		}
	})
	return func() { _ = s.db.Callback().Create().Remove(name) }
}

// MapDBError exposes mapDBError to the external tests.
var MapDBError = mapDBError

// WriteBatchAtomically exposes writeBatchAtomically: each write is its SQL
// (with ? placeholders) followed by its arguments.
func WriteBatchAtomically(ctx context.Context, s *Store, writes ...[]any) error {
	var b writeBatch
	for _, w := range writes {
		b.add(w[0].(string), w[1:]...)
	}
	return s.writeBatchAtomically(ctx, &b)
}

// SetPDFStepHook makes every page edit of s call fn in the middle of its PDF
// work (after the rewrite, before the new version is read), so a test can
// hold an edit there.
func SetPDFStepHook(s *Store, fn func(ctx context.Context)) { s.pdfStepHook = fn }

// CheckTagDraft checks a decoded tag with the room's rules, as checkForm
// does before it looks at the room (checkTag with roomTagRules).
func CheckTagDraft(base string, d TagDraft) (TagInput, error) {
	var p Problems
	t := checkTag(&p, base, d, roomTagRules())
	return t, p.Err(KindInvalid, "problem.summary.tag_invalid")
}

// CheckTagForm decodes a posted tag form (RoomTagForm.draft) and checks it
// as a room does before it looks at the room.
func CheckTagForm(f RoomTagForm) (TagInput, error) { return CheckTagDraft("#", f.draft()) }

// CheckParticipantForm decodes and checks a posted participant form as a
// room with every flag on does (participantFromForm).
func CheckParticipantForm(id string, f ParticipantForm) (ParticipantInput, error) {
	return (&Room{Config: DefaultRoomConfig()}).participantFromForm(id, f)
}

// RecordAuditWith writes e and then fails with fail inside one transaction
// (nil: commits), to show that a rolled-back change leaves no audit event.
func RecordAuditWith(ctx context.Context, s *Store, e AuditEntry, fail error) error {
	return s.inTx(ctx, func(tx *Store) error {
		if err := tx.audit(ctx, e); err != nil {
			return err
		}
		return fail
	})
}

// RecordAuditHeld records e in a database transaction that inserts the
// event, closes inserted, and commits only once release is closed: a change
// that commits after changes that began later.
func RecordAuditHeld(ctx context.Context, s *Store, e AuditEntry, inserted chan<- struct{}, release <-chan struct{}) error {
	return s.inTx(ctx, func(tx *Store) error {
		if err := tx.audit(ctx, e); err != nil {
			return err
		}
		if err := tx.flushAudit(ctx); err != nil {
			return err
		}
		close(inserted)
		<-release
		return nil
	})
}

// AuditSealerLockClass is the first key of the sealer's advisory lock.
const AuditSealerLockClass = auditSealerLockClass
