package models_test

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

// Sessions that open a room in the same instant each get a number of their
// own (1, 2, 3…: "Guest 2" is one person), whichever instance they reach.
func TestRoomPresenceNumbersEachSessionOnce(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		tenant := env.NewTenant(t, "Acme")
		p, err := env.Store.AuthenticateAPIToken(ctx, tenant.Token)
		if err != nil {
			t.Fatal(err)
		}
		in, err := models.ParseRoomInput([]byte(`{"senderId": "` + strconv.FormatInt(tenant.Sender.ID, 10) + `"}`))
		if err != nil {
			t.Fatal(err)
		}
		created, err := env.Store.CreateRoom(ctx, p.Actor(), in)
		if err != nil {
			t.Fatal(err)
		}
		room := created.Room.ID
		const sessions = 16
		start := make(chan struct{})
		errs := make(chan error, sessions)
		var wg sync.WaitGroup
		for i := range sessions {
			wg.Go(func() {
				<-start
				errs <- env.Store.JoinRoomPresence(ctx, room, fmt.Sprintf("s%02d", i))
			})
		}
		close(start)
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		// A session that opens a second window keeps its number.
		if err := env.Store.JoinRoomPresence(ctx, room, "s03"); err != nil {
			t.Fatal(err)
		}
		var ordinals []int
		if err := env.DB.DB.Raw("SELECT ordinal FROM room_presence WHERE room_id = ? ORDER BY ordinal", room).Scan(&ordinals).Error; err != nil {
			t.Fatal(err)
		}
		if len(ordinals) != sessions {
			t.Fatalf("%d rows for %d sessions: %v", len(ordinals), sessions, ordinals)
		}
		for i, n := range ordinals {
			if n != i+1 {
				t.Fatalf("numbers %v, want 1…%d each once", ordinals, sessions)
			}
		}
	})
}
