package models_test

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

// roomEvents reads every kept event of a room, in order.
func roomEvents(t *testing.T, st *models.Store, roomID string) []models.RoomEvent {
	t.Helper()
	out, err := st.RoomEventsAfter(context.Background(), roomID, 0, 100000)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func addTag(ctx context.Context, st *models.Store, roomID string, x int) (*models.TagEdit, error) {
	return st.AddRoomTag(ctx, roomID, 0, models.RoomTagForm{Type: "SIGNATURETEMPLATE", Page: "1",
		X: strconv.Itoa(72 + x), Y: "100", Width: "144", Height: "36"})
}

// Writers of one room on two instances at once: every committed change has
// its event, numbered 1, 2, 3… with no gap and no number twice.
func TestRoomEventNumbersAreGapFreeUnderConcurrentWriters(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		room, _ := suggestionRoom(t, env, "lease-initials", `{}`)
		stores := []*models.Store{env.Store, env.AnotherInstance(t)}
		const writers, each = 6, 5
		var wg sync.WaitGroup
		var mu sync.Mutex
		committed := 0
		for w := range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range each {
					if _, err := addTag(ctx, stores[w%2], room.ID, w*each+i); err == nil {
						mu.Lock()
						committed++
						mu.Unlock()
					} else if !errors.Is(err, models.ErrConflict) {
						t.Errorf("writer %d: %v", w, err)
					}
				}
			}()
		}
		wg.Wait()
		events := roomEvents(t, env.Store, room.ID)
		if len(events) != committed || committed == 0 {
			t.Fatalf("%d events for %d committed changes", len(events), committed)
		}
		for i, e := range events {
			if e.Seq != int64(i+1) || e.Type != models.RoomEventTagCreated {
				t.Fatalf("event %d is %d %s, want %d tag_created", i, e.Seq, e.Type, i+1)
			}
		}
		after, err := env.Store.RoomByID(ctx, room.ID)
		if err != nil {
			t.Fatal(err)
		}
		if after.EventSeq != int64(committed) {
			t.Fatalf("the room's counter is %d after %d events", after.EventSeq, committed)
		}
	})
}

// A tag's events carry what the editor draws it with, and the session and
// page that made the change; a refused change writes none.
func TestRoomTagEventsCarryTheTag(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := models.WithRoomVisitor(context.Background(), models.RoomVisitor{Session: "abcd1234", Client: "page-1"})
		room, _ := suggestionRoom(t, env, "lease-initials", `{"documents": {"advancedEdit": true}}`)
		ed, err := addTag(ctx, env.Store, room.ID, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := env.Store.UpdateRoomTag(ctx, room.ID, ed.Tag.TagID, models.RoomTagForm{Type: "SIGNATURETEMPLATE", Page: "2",
			X: "80", Y: "120", Width: "144", Height: "36", Version: "1"}); err != nil {
			t.Fatal(err)
		}
		if _, err := env.Store.UpdateRoomTag(ctx, room.ID, ed.Tag.TagID, models.RoomTagForm{Type: "SIGNATURETEMPLATE", Page: "2",
			X: "90", Y: "120", Width: "144", Height: "36", Version: "1"}); err == nil {
			t.Fatal("a stale update was accepted")
		}
		if err := env.Store.DeleteRoomTag(ctx, room.ID, ed.Tag.TagID, 2); err != nil {
			t.Fatal(err)
		}
		events := roomEvents(t, env.Store, room.ID)
		want := []string{models.RoomEventTagCreated, models.RoomEventTagUpdated, models.RoomEventTagDeleted}
		if len(events) != len(want) {
			t.Fatalf("events %+v, want %v", events, want)
		}
		for i, e := range events {
			var data struct{ Tags []models.RoomEventTag }
			if err := json.Unmarshal([]byte(e.Data), &data); err != nil {
				t.Fatal(err)
			}
			if e.Type != want[i] || len(data.Tags) != 1 || data.Tags[0].ID != ed.Tag.TagID || e.Session != "abcd1234" || e.Client != "page-1" {
				t.Fatalf("event %d: %+v, want %s of tag %s by session abcd1234, page-1", i, e, want[i], ed.Tag.TagID)
			}
			if i == 1 && (data.Tags[0].Version != 2 || data.Tags[0].Page != 2 || data.Tags[0].X != 80 || data.Tags[0].Width != 144) {
				t.Fatalf("tag_updated carries %+v, want version 2 on page 2 at x 80", data.Tags[0])
			}
		}
	})
}

// The page, document, participant, suggestion and room events, each from
// its store operation.
func TestEveryRoomChangeWritesItsEvent(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		room, _ := suggestionRoom(t, env, "lease-initials", `{"documents": {"advancedEdit": true, "edit": true}}`)
		last := func(want string) {
			t.Helper()
			events := roomEvents(t, env.Store, room.ID)
			if len(events) == 0 || events[len(events)-1].Type != want {
				t.Fatalf("after the change the events are %+v, want the last %s", events, want)
			}
		}
		if _, err := env.Store.MoveRoomPage(ctx, room.ID, 0, 1, 2, ""); err != nil {
			t.Fatal(err)
		}
		last(models.RoomEventPageMoved)
		ed, err := env.Store.DeleteRoomPage(ctx, room.ID, 0, 2, "")
		if err != nil {
			t.Fatal(err)
		}
		last(models.RoomEventPageDeleted)
		if _, err := env.Store.RestoreRoomDocument(ctx, room.ID, 0, ed.FromDocumentID, ed.ToDocumentID); err != nil {
			t.Fatal(err)
		}
		last(models.RoomEventPageRestored)
		if err := env.Store.RenameRoomDocument(ctx, room.ID, 0, "Renamed"); err != nil {
			t.Fatal(err)
		}
		last(models.RoomEventDocumentRenamed)
		id, err := env.Store.AddRoomParticipant(ctx, room.ID, models.ParticipantForm{FirstName: "Sam", LastName: "Seller", Email: "sam@example.com"})
		if err != nil {
			t.Fatal(err)
		}
		last(models.RoomEventParticipantAdded)
		if err := env.Store.UpdateRoomParticipant(ctx, room.ID, id, models.ParticipantForm{FirstName: "Sam", LastName: "Sellers", Email: "sam@example.com"}); err != nil {
			t.Fatal(err)
		}
		last(models.RoomEventParticipantUpdated)
		if _, err := env.Store.RemoveRoomParticipant(ctx, room.ID, id); err != nil {
			t.Fatal(err)
		}
		last(models.RoomEventParticipantRemoved)
		if s := offered(t, env, room.ID); len(s) > 0 {
			if err := env.Store.DecideRoomSuggestions(ctx, room.ID, &models.SuggestionDecisions{Dismiss: []models.SuggestionRef{refOf(s[0])}}); err != nil {
				t.Fatal(err)
			}
			last(models.RoomEventSuggestionsDismissed)
			if err := env.Store.DecideRoomSuggestions(ctx, room.ID, &models.SuggestionDecisions{Restore: []models.SuggestionRef{refOf(s[0])}}); err != nil {
				t.Fatal(err)
			}
			last(models.RoomEventSuggestionsRestored)
		} else {
			t.Fatal("the corpus document offers no suggested field")
		}
		if err := env.Store.ExpireRoom(ctx, room.ID); err != nil {
			t.Fatal(err)
		}
		last(models.RoomEventRoomExpired)
		events := roomEvents(t, env.Store, room.ID)
		for i, e := range events {
			if e.Seq != int64(i+1) {
				t.Fatalf("event %d has number %d", i, e.Seq)
			}
		}
	})
}

// A room keeps its last MaxRoomEvents events: the change that writes one
// more deletes the oldest in its own transaction.
func TestRoomEventsKeepTheLastTenThousand(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		room, _ := suggestionRoom(t, env, "lease-initials", `{}`)
		if _, err := addTag(ctx, env.Store, room.ID, 0); err != nil {
			t.Fatal(err)
		}
		// As if 9,999 more had been written (only the counter moves).
		if err := env.DB.DB.Exec(`UPDATE markup_rooms SET event_seq = ? WHERE id = ?`, models.MaxRoomEvents, room.ID).Error; err != nil {
			t.Fatal(err)
		}
		if _, err := addTag(ctx, env.Store, room.ID, 1); err != nil {
			t.Fatal(err)
		}
		events := roomEvents(t, env.Store, room.ID)
		if len(events) != 1 || events[0].Seq != models.MaxRoomEvents+1 {
			t.Fatalf("kept %+v, want event %d alone", events, models.MaxRoomEvents+1)
		}
	})
}

// A stream's subscription receives the events committed on its instance,
// and on PostgreSQL those of another instance (LISTEN/NOTIFY); past the
// limit of streams of a room it is refused.
func TestRoomEventHubFansOutAcrossInstances(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		room, _ := suggestionRoom(t, env, "lease-initials", `{}`)
		sub, err := env.Store.SubscribeRoomEvents(room.ID, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer sub.Close()
		writer := env.Store
		if env.DB.Dialect == models.DialectPostgres {
			go env.Store.ListenRoomEvents(ctx)
			writer = env.AnotherInstance(t)
			time.Sleep(300 * time.Millisecond) // deliberately fixed: LISTEN takes effect before the first write
			select {
			case <-sub.Lagged: // LISTEN's start tells the streams to read what they may have missed
			default:
			}
		}
		ed, err := addTag(ctx, writer, room.ID, 0)
		if err != nil {
			t.Fatal(err)
		}
		select {
		case e := <-sub.Events:
			if e.Seq != 1 || e.Type != models.RoomEventTagCreated {
				t.Fatalf("received %+v", e)
			}
		case <-sub.Lagged:
			t.Fatal("the subscription lagged instead of receiving the event")
		case <-time.After(5 * time.Second):
			t.Fatalf("the event of tag %s never reached the subscription", ed.Tag.TagID)
		}
	})
}

func TestRoomEventStreamLimits(t *testing.T) {
	t.Parallel()
	env := modelstest.New(t, models.DialectSQLite)
	st := models.NewStore(env.DB, env.Bucket, models.StoreOptions{RoomStreamsPerRoom: 2, StreamsPerInstance: 3})
	var subs []*models.RoomSubscription
	for _, room := range []string{"a", "a", "b"} {
		sub, err := st.SubscribeRoomEvents(room, 0)
		if err != nil {
			t.Fatal(err)
		}
		subs = append(subs, sub)
	}
	if _, err := st.SubscribeRoomEvents("a", 0); !errors.Is(err, models.ErrTooManyStreams) {
		t.Fatalf("a third stream of a room: %v, want ErrTooManyStreams", err)
	}
	if _, err := st.SubscribeRoomEvents("c", 0); !errors.Is(err, models.ErrTooManyStreams) {
		t.Fatalf("a fourth stream of the instance: %v, want ErrTooManyStreams", err)
	}
	subs[0].Close()
	if sub, err := st.SubscribeRoomEvents("c", 0); err != nil {
		t.Fatalf("a stream after one closed: %v", err)
	} else {
		sub.Close()
	}
	st.CloseRoomStreams()
	select {
	case <-subs[1].Closed:
	default:
		t.Fatal("CloseRoomStreams left a stream open")
	}
}
