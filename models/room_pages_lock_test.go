package models_test

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

// holdPDFStep makes the first page edit of env's store wait in the middle of
// its PDF work: entered is closed when it gets there, and it goes on when
// release is closed. Later page edits pass through.
func holdPDFStep(env *modelstest.Env) (entered, release chan struct{}) {
	entered, release = make(chan struct{}), make(chan struct{})
	var once sync.Once
	models.SetPDFStepHook(env.Store, func(context.Context) {
		first := false
		once.Do(func() { first = true })
		if first {
			close(entered)
			<-release
		}
	})
	return entered, release
}

func waitFor(t *testing.T, ch chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(30 * time.Second):
		t.Fatalf("%s never happened", what)
	}
}

// SQLite has one database-wide write lock: while a page edit is in the
// middle of its PDF work (held there by the test), another organization's
// writes, one every 0.5 s, all succeed at once.
func TestPageEditsDoNotHoldTheWriteLock(t *testing.T) {
	t.Parallel()
	env := modelstest.New(t, models.DialectSQLite)
	ctx := context.Background()
	room, _ := suggestionRoom(t, env, "lease-initials", `{"documents": {"advancedEdit": true}}`)
	other := env.NewTenant(t, "Other")
	entered, release := holdPDFStep(env)
	done := make(chan error, 1)
	go func() {
		_, err := env.Store.DeleteRoomPage(ctx, room.ID, 0, 1, "")
		done <- err
	}()
	waitFor(t, entered, "the page edit's PDF work")
	var slowest time.Duration
	for i := range 6 {
		wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		start := time.Now()
		_, _, err := env.Store.CreateAPIToken(wctx, other.Org.ID, "write "+strconv.Itoa(i))
		took := time.Since(start)
		cancel()
		slowest = max(slowest, took)
		if err != nil || took > 2*time.Second {
			t.Errorf("write %d while a page edit reads its PDF: %v after %s", i, err, took)
		}
		time.Sleep(500 * time.Millisecond) // deliberately fixed: the writes are spread over the page edit's PDF work
	}
	t.Logf("slowest of 6 writes during the page edit's PDF work: %s", slowest)
	close(release)
	if err := <-done; err != nil {
		t.Fatalf("the page edit: %v", err)
	}
	ws, err := env.Store.RoomWorkspace(ctx, room.ID)
	if err != nil {
		t.Fatal(err)
	}
	if d := ws.Uploads[ws.Transaction.Documents[0].DocumentID]; d.PageCount != 2 {
		t.Fatalf("after the page edit the document has %d pages, want 2", d.PageCount)
	}
}

// A page edit whose document changed while it rewrote the PDF (another
// edit landed first) is refused as document_changed, and the version it
// made is removed again; one whose room completed meanwhile is refused too.
func TestPageEditsRecheckAfterThePDFWork(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		room, tenant := suggestionRoom(t, env, "lease-initials", `{"documents": {"advancedEdit": true}}`)
		docsBefore := countDocuments(t, env, tenant.Org.ID)
		entered, release := holdPDFStep(env)
		done := make(chan error, 1)
		go func() {
			_, err := env.Store.DeleteRoomPage(ctx, room.ID, 0, 1, "")
			done <- err
		}()
		waitFor(t, entered, "the page edit's PDF work")
		if _, err := env.Store.MoveRoomPage(ctx, room.ID, 0, 1, 3, ""); err != nil {
			t.Fatal(err)
		}
		close(release)
		err := <-done
		var ve *models.ValidationError
		if !errors.As(err, &ve) || len(ve.Errors) != 1 || ve.Errors[0].Code != "document_changed" {
			t.Fatalf("a page edit of a version replaced meanwhile: %v, want document_changed", err)
		}
		if n := countDocuments(t, env, tenant.Org.ID); n != docsBefore+1 {
			t.Fatalf("%d documents after one edit and one refused, want %d (the refused one's version removed)", n, docsBefore+1)
		}
	})
}

func countDocuments(t *testing.T, env *modelstest.Env, orgID int64) int64 {
	t.Helper()
	var n int64
	if err := env.DB.DB.Model(&models.Document{}).Where("organization_id = ?", orgID).Count(&n).Error; err != nil {
		t.Fatal(err)
	}
	return n
}

// A page edit the room or the document would refuse does no PDF work: the
// checks come first.
func TestPageEditsCheckBeforeThePDFWork(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		room, _ := suggestionRoom(t, env, "lease-initials", `{"documents": {"advancedEdit": true}}`)
		locked, _ := suggestionRoom(t, env, "lease-initials", `{"documents": {"advancedEdit": false}}`)
		models.SetPDFStepHook(env.Store, func(context.Context) { t.Error("a refused page edit read its PDF") })
		if _, err := env.Store.DeleteRoomPage(ctx, room.ID, 0, 4, ""); !errors.Is(err, models.ErrNotFound) {
			t.Errorf("page 4 of 3: %v", err)
		}
		if _, err := env.Store.MoveRoomPage(ctx, room.ID, 0, 1, 1, ""); err == nil {
			t.Error("a move onto itself was accepted")
		}
		if _, err := env.Store.DeleteRoomPage(ctx, locked.ID, 0, 1, ""); !errors.Is(err, models.ErrForbidden) {
			t.Errorf("without documents.advancedEdit: %v", err)
		}
		env.Clock.Advance(48 * time.Hour)
		if _, err := env.Store.DeleteRoomPage(ctx, room.ID, 0, 1, ""); !errors.Is(err, models.ErrRoomExpired) {
			t.Errorf("an expired room: %v", err)
		}
	})
}
