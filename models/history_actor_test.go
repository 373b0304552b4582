package models_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// historyActorRow is the typed actor of one history entry, as stored.
type historyActorRow struct {
	ID                                                     string
	Actor, Kind, ActorID, Name, Via, For, Session, Address string
}

func readHistoryActors(t *testing.T, env *modelstest.Env) map[string]historyActorRow {
	t.Helper()
	var rows []historyActorRow
	err := env.DB.DB.Raw(`SELECT id, actor, actor_kind AS kind, actor_id, actor_name AS name, actor_via AS via,
		actor_for AS "for", actor_session AS session, actor_address AS address FROM transaction_events`).Scan(&rows).Error
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]historyActorRow{}
	for _, r := range rows {
		out[r.ID] = r
	}
	return out
}

// migrationUpdates are the UPDATE statements of a migration's Up section
// (its fill of existing rows), for the dialect.
func migrationUpdates(t *testing.T, dialect models.Dialect, file string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("migrations", string(dialect), file))
	if err != nil {
		t.Fatal(err)
	}
	up, _, _ := strings.Cut(string(b), "-- +goose Down")
	var out []string
	for _, stmt := range strings.Split(up, ";") {
		var lines []string
		for _, line := range strings.Split(stmt, "\n") {
			if !strings.HasPrefix(strings.TrimSpace(line), "--") {
				lines = append(lines, line)
			}
		}
		if s := strings.TrimSpace(strings.Join(lines, "\n")); strings.HasPrefix(s, "UPDATE") {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s has no UPDATE", file)
	}
	return out
}

// History entries keep their actor as data (kind, id, name, channel, the
// sender a room was made for, a room visitor's session and address), and
// migration 00025 fills those columns for older rows from the English label
// alone: emptied and refilled, every row of every kind of actor the product
// writes reads back as written.
func TestHistoryActorsAreDataAndTheMigrationFillsThem(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		tenant := env.NewTenant(t, "Acme")
		p, err := env.Store.AuthenticateAPIToken(ctx, tenant.Token)
		if err != nil {
			t.Fatal(err)
		}
		doc := env.UploadPDF(t, tenant.Org.ID, pdftest.ThreePages(t), "Lease")
		room := func(actor models.Actor) *models.Room {
			in, err := models.ParseRoomInput([]byte(`{"senderId": "` + strconv.FormatInt(tenant.Sender.ID, 10) + `", "documents": ["` + doc.ID + `"],` +
				` "participants": [{"firstName": "Pat", "lastName": "Buyer", "email": "pat@example.com"}]}`))
			if err != nil {
				t.Fatal(err)
			}
			created, err := env.Store.CreateRoom(ctx, actor, in)
			if err != nil {
				t.Fatal(err)
			}
			return created.Room
		}
		in, err := models.ParseTransactionInput(modelstest.TransactionBody(doc, 1, 1))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := env.Store.CreateTransaction(ctx, p.Actor(), in); err != nil {
			t.Fatal(err)
		}
		byToken := room(p.Actor())
		room(models.ConsoleRoomActor(tenant.Org.ID, &models.User{ID: 42, Email: "ada@example.com"}))
		room(models.OperatorRoomActor(tenant.Org.ID))
		for i, v := range []models.RoomVisitor{{Session: "d833b79a", ClientAddr: "127.0.0.1"}, {ClientAddr: "::1"}, {Session: "0badf00d"}, {}} {
			vctx := models.WithRoomVisitor(ctx, v)
			if err := env.Store.RenameRoomDocument(vctx, byToken.ID, 0, "Lease "+strconv.Itoa(i)); err != nil {
				t.Fatal(err)
			}
		}

		written := readHistoryActors(t, env)
		kinds := map[string]int{}
		for _, r := range written {
			kinds[r.Kind]++
		}
		if kinds["api_token"] != 2 || kinds["admin"] != 1 || kinds["operator"] != 1 || kinds["room"] != 4 || len(written) != 8 {
			t.Fatalf("kinds written: %v", kinds)
		}
		for _, r := range written {
			switch r.Kind {
			case "api_token":
				if r.ActorID != strconv.FormatInt(tenant.TokenID, 10) || r.Name != "test" || r.Via != "api" {
					t.Errorf("token actor %+v", r)
				}
			case "admin":
				if r.ActorID != "42" || r.Name != "ada@example.com" || r.For != "Sam Sender" || r.Via != "console" {
					t.Errorf("admin actor %+v", r)
				}
			case "room":
				if r.ActorID != byToken.ID || r.Name != "Sam Sender" || r.Via != "room" {
					t.Errorf("room actor %+v", r)
				}
			}
			if r.Actor == "" {
				t.Errorf("%s: no English label kept for older readers", r.ID)
			}
		}

		// What a row held before migration 00025: the label alone.
		if err := env.DB.DB.Exec(`UPDATE transaction_events SET actor_kind = '', actor_id = '', actor_name = '', actor_via = '',
			actor_for = '', actor_session = '', actor_address = ''`).Error; err != nil {
			t.Fatal(err)
		}
		for _, stmt := range migrationUpdates(t, env.DB.Dialect, "00025_history_actors.sql") {
			if err := env.DB.DB.Exec(stmt).Error; err != nil {
				t.Fatalf("%v\n%s", err, stmt)
			}
		}
		for id, r := range readHistoryActors(t, env) {
			want := written[id]
			if r.Kind == "admin" {
				want.ActorID = "" // the label never named the admin's id
			}
			if r != want {
				t.Errorf("filled from %q:\n got %+v\nwant %+v", r.Actor, r, want)
			}
		}
	})
}
