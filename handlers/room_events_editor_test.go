package handlers_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

// TestEditorFollowsEveryRoomEventType reads the room event types the models
// declare (models/room_events.go, the RoomEvent* constants) and checks the
// editor's live module listens to each: a new type the editor did not know
// would be a change other windows never draw.
func TestEditorFollowsEveryRoomEventType(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "../models/room_events.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	ast.Inspect(f, func(n ast.Node) bool {
		spec, ok := n.(*ast.ValueSpec)
		if !ok || len(spec.Names) != 1 || len(spec.Values) != 1 || !strings.HasPrefix(spec.Names[0].Name, "RoomEvent") {
			return true
		}
		if lit, ok := spec.Values[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
			v, _ := strconv.Unquote(lit.Value)
			types = append(types, v)
		}
		return true
	})
	if len(types) < 20 {
		t.Fatalf("read %d room event types from models/room_events.go: %v", len(types), types)
	}
	live, err := os.ReadFile("../web/src/editor/live.mjs")
	if err != nil {
		t.Fatal(err)
	}
	list := string(live)
	if i := strings.Index(list, "ROOM_EVENT_TYPES = ["); i >= 0 {
		list = list[i : i+strings.Index(list[i:], "];")]
	} else {
		t.Fatal("live.mjs has no ROOM_EVENT_TYPES list")
	}
	for _, typ := range types {
		if !strings.Contains(list, strconv.Quote(typ)) {
			t.Errorf("the editor (web/src/editor/live.mjs ROOM_EVENT_TYPES) does not follow %q", typ)
		}
	}
}

// The room page names its event stream for the editor (data-events-url,
// starting after the last event the page shows, data-event-seq), and that
// address is a working stream; an embedded room's carries its session (no
// cookie reaches a frame); a room that is not open names none.
func TestRoomPageNamesItsStream(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		srv, tr, signers := liveTagRoom(t, env)
		s, tenant := tr.s, tr.tenant
		tr.add(t, tagForm(signers[0]))
		tr.add(t, tagForm(signers[1], "x", "300"))

		html := tr.b.get(tr.path).status(http.StatusOK).Body.String()
		want := `data-events-url="` + tr.path + `/events?lastEventId=2" data-event-seq="2"`
		if !strings.Contains(html, want) {
			t.Fatalf("the room page lacks %s", want)
		}
		_, live := openStream(t, srv, tr.b, tr.path+"/events?lastEventId=2", nil)
		third := tr.add(t, tagForm(signers[0], "x", "400"))
		if e := live.next(); e.ID != 3 || !strings.Contains(string(e.Data.Data), third) {
			t.Fatalf("the page's stream then sends %+v", e)
		}

		framed := embedRoom(t, s, env, tenant, "http://localhost:5173")
		loc := s.browser().get(strings.TrimPrefix(framed.URL, testBaseURL)).status(http.StatusSeeOther).Header().Get("Location")
		session := strings.TrimPrefix(loc, "/rooms/"+framed.ID+"?room_session=")
		page := s.browser().get(loc).status(http.StatusOK).Body.String()
		embedded := `data-events-url="/rooms/` + framed.ID + `/events?lastEventId=0&amp;room_session=` + session + `"`
		if !strings.Contains(page, embedded) {
			t.Fatalf("the embedded room page lacks %s", embedded)
		}
		if code, _ := openStream(t, srv, nil, "/rooms/"+framed.ID+"/events?lastEventId=0&room_session="+session, nil); code != http.StatusOK {
			t.Fatalf("the embedded room's stream, by its address alone: %d", code)
		}

		tr.b.post(tr.path+"/complete", url.Values{"csrf": {tr.csrf}}).status(http.StatusSeeOther)
		if html := tr.b.get(tr.path).Body.String(); strings.Contains(html, "data-events-url") || strings.Contains(html, "data-live-status") {
			t.Error("a completed room's page names a stream")
		}
	})
}

// Presence: a stream says who has the room open, itself named as you;
// another browser opening the room is told to the first, its selection
// too, and its leaving when its stream closes. A selection is bounded and
// checked; one of a browser without the room is refused.
func TestRoomPresence(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		srv, tr, signers := liveTagRoom(t, env)
		s := tr.s
		tag := tr.add(t, tagForm(signers[0]))
		events := tr.path + "/events"

		_, first := openStream(t, srv, tr.b, events, nil)
		p := first.nextPresence()
		if len(p.People) != 1 || p.People[0].Session != p.You || p.People[0].N != 1 || p.You == "" {
			t.Fatalf("alone in the room: %+v", p)
		}
		me := p.You

		guest := s.browser()
		guestPath := guest.open(tr.room.URL)
		guestCSRF := csrf(t, guest.get(guestPath).status(http.StatusOK).Body.String())
		_, second := openStream(t, srv, guest, events, nil)
		p = first.nextPresence()
		if len(p.People) != 2 || p.People[0].Session != me || p.People[1].N != 2 || p.People[1].Session == me {
			t.Fatalf("with a guest: %+v", p)
		}
		them := p.People[1].Session
		if p := second.nextPresence(); p.You != them || len(p.People) != 2 {
			t.Fatalf("the guest's own stream: %+v", p)
		}

		selectAs := func(b *browser, token, body string) *response {
			req := httptest.NewRequest(http.MethodPost, tr.path+"/presence", strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("X-CSRF-Token", token)
			return b.do(req)
		}
		selectAs(guest, guestCSRF, `{"selected":["`+tag+`"]}`).status(http.StatusNoContent)
		p = first.nextPresence()
		if len(p.People) != 2 || len(p.People[1].Selected) != 1 || p.People[1].Selected[0] != tag {
			t.Fatalf("the guest's selection: %+v", p)
		}
		// Refused: not an id, too many, no CSRF token, a browser that never opened the room.
		selectAs(guest, guestCSRF, `{"selected":["<script>"]}`).status(http.StatusBadRequest)
		many := `{"selected":["` + strings.Repeat(`a","`, models.MaxPresenceSelected) + `a"]}`
		selectAs(guest, guestCSRF, many).status(http.StatusBadRequest)
		selectAs(guest, "", `{"selected":[]}`).status(http.StatusForbidden)
		selectAs(s.browser(), guestCSRF, `{"selected":[]}`).status(http.StatusForbidden)

		// The guest closes its window: gone at once.
		second.close()
		p = first.nextPresence()
		if len(p.People) != 1 || p.People[0].Session != me {
			t.Fatalf("after the guest left: %+v", p)
		}
		// It comes back: the same number, nothing selected.
		_, again := openStream(t, srv, guest, events, nil)
		p = first.nextPresence()
		if len(p.People) != 2 || p.People[1].N != 2 || p.People[1].Session != them || len(p.People[1].Selected) != 0 {
			t.Fatalf("the guest back: %+v", p)
		}
		again.close()
	})
}
