package handlers_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

// sseEvent is one event a stream sent.
type sseEvent struct {
	Type string
	ID   int64
	Data struct {
		Session string          `json:"session"`
		Client  string          `json:"client"`
		Data    json.RawMessage `json:"data"`
	}
}

// sseStream reads a room's event stream over a real connection: the
// room's numbered events, and apart from them its presence events.
type sseStream struct {
	t        *testing.T
	res      *http.Response
	events   chan sseEvent
	presence chan presenceEvent
	cancel   context.CancelFunc
}

// presenceEvent is the data of a presence event.
type presenceEvent struct {
	You    string `json:"you"`
	People []struct {
		Session  string   `json:"session"`
		N        int      `json:"n"`
		Selected []string `json:"selected"`
	} `json:"people"`
}

// openStream opens GET path on srv with the browser's cookies and the
// given headers; the answer's status is returned with the stream (nil
// unless 200).
func openStream(t *testing.T, srv *httptest.Server, b *browser, path string, header map[string]string) (int, *sseStream) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if b != nil {
		for _, c := range b.cookies {
			req.AddCookie(c)
		}
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := srv.Client().Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		res.Body.Close()
		cancel()
		return res.StatusCode, nil
	}
	if ct := res.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("stream Content-Type %q", ct)
	}
	s := &sseStream{t: t, res: res, events: make(chan sseEvent, 1000), presence: make(chan presenceEvent, 1000), cancel: cancel}
	go s.read()
	t.Cleanup(s.close)
	return res.StatusCode, s
}

func (s *sseStream) read() {
	defer close(s.events)
	sc := bufio.NewScanner(s.res.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var e sseEvent
	var data string
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "" && e.Type == "presence":
			var p presenceEvent
			_ = json.Unmarshal([]byte(data), &p)
			s.presence <- p
			e = sseEvent{}
		case line == "":
			if e.Type != "" {
				s.events <- e
			}
			e = sseEvent{}
		case strings.HasPrefix(line, "event: "):
			e.Type = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "id: "):
			e.ID, _ = strconv.ParseInt(strings.TrimPrefix(line, "id: "), 10, 64)
		case strings.HasPrefix(line, "data: "):
			data = strings.TrimPrefix(line, "data: ")
			_ = json.Unmarshal([]byte(data), &e.Data)
		}
	}
}

func (s *sseStream) close() {
	s.cancel()
	s.res.Body.Close()
}

// liveTagRoom is a room opened by a browser on a real server (streams need
// one), with the room's participant ids.
func liveTagRoom(t *testing.T, env *modelstest.Env) (*httptest.Server, *tagRoom, []string) {
	t.Helper()
	s := newServer(t, env)
	srv := httptest.NewServer(s.handler)
	t.Cleanup(srv.Close)
	tr := openTagRoom(t, s, env.NewTenant(t, "Acme"), nil)
	return srv, tr, tr.participantIDs(t)
}

// nextPresence waits for the stream's next presence event.
func (s *sseStream) nextPresence() presenceEvent {
	s.t.Helper()
	select {
	case p := <-s.presence:
		return p
	case <-time.After(10 * time.Second):
		s.t.Fatal("no presence event within 10 s")
	}
	return presenceEvent{}
}

// next waits for the stream's next event.
func (s *sseStream) next() sseEvent {
	s.t.Helper()
	select {
	case e, ok := <-s.events:
		if !ok {
			s.t.Fatal("the stream closed")
		}
		return e
	case <-time.After(10 * time.Second):
		s.t.Fatal("no event within 10 s")
	}
	return sseEvent{}
}

// ended waits for the stream to close.
func (s *sseStream) ended() {
	s.t.Helper()
	for {
		select {
		case _, ok := <-s.events:
			if !ok {
				return
			}
		case <-time.After(10 * time.Second):
			s.t.Fatal("the stream did not close")
		}
	}
}

// The stream of a room: its session's changes as they commit, each with
// its number and the page that made it; a reconnection with Last-Event-ID
// gets exactly what it missed; a number no longer kept or never given is
// `event: reset`; another browser, and a room this browser did not open,
// are refused; the room's completion is the last event.
func TestRoomEventStream(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		srv, tr, signers := liveTagRoom(t, env)
		s, tenant := tr.s, tr.tenant
		events := tr.path + "/events"

		_, live := openStream(t, srv, tr.b, events, nil)
		first := tr.add(t, tagForm(signers[0]))
		e := live.next()
		if e.Type != models.RoomEventTagCreated || e.ID != 1 || !strings.Contains(string(e.Data.Data), first) || e.Data.Session == "" {
			t.Fatalf("first event %+v", e)
		}
		second := tr.add(t, tagForm(signers[1], "x", "300"))
		tr.send(http.MethodDelete, tr.path+"/tags/"+first, nil).status(http.StatusOK)
		if e := live.next(); e.ID != 2 || !strings.Contains(string(e.Data.Data), second) {
			t.Fatalf("second event %+v", e)
		}
		if e := live.next(); e.ID != 3 || e.Type != models.RoomEventTagDeleted {
			t.Fatalf("third event %+v", e)
		}

		// Reconnected after event 1: events 2 and 3, then what comes next.
		_, again := openStream(t, srv, tr.b, events, map[string]string{"Last-Event-ID": "1"})
		if e := again.next(); e.ID != 2 {
			t.Fatalf("replay after 1 starts with %+v", e)
		}
		if e := again.next(); e.ID != 3 {
			t.Fatalf("replay after 1 goes on with %+v", e)
		}
		// A number this room never gave: reset at the newest.
		_, bogus := openStream(t, srv, tr.b, events, map[string]string{"Last-Event-ID": "99"})
		if e := bogus.next(); e.Type != "reset" || e.ID != 3 {
			t.Fatalf("after a number never given: %+v", e)
		}

		// Refused: a browser that never opened the room; the room of another session.
		if code, _ := openStream(t, srv, nil, events, nil); code != http.StatusForbidden {
			t.Fatalf("a stream without the room's session: %d", code)
		}
		other := openTagRoom(t, s, tenant, nil)
		if code, _ := openStream(t, srv, tr.b, other.path+"/events", nil); code != http.StatusForbidden {
			t.Fatalf("another room's stream with this session: %d", code)
		}
		// The page's own id rides along.
		req := httptest.NewRequest(http.MethodPost, tr.path+"/tags", strings.NewReader(tagForm(signers[0]).Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("HX-Request", "true")
		req.Header.Set("X-CSRF-Token", tr.csrf)
		req.Header.Set("X-Room-Client", "page-42")
		tr.b.do(req).status(http.StatusCreated)
		if e := live.next(); e.ID != 4 || e.Data.Client != "page-42" {
			t.Fatalf("an event of page-42: %+v", e)
		}
		if e := again.next(); e.ID != 4 {
			t.Fatalf("the reconnected stream then gets %+v", e)
		}
	})
}

// A number no longer kept (the room wrote more than MaxRoomEvents since)
// is reset at the newest.
func TestRoomEventStreamResetsPastTheKeptEvents(t *testing.T) {
	t.Parallel()
	env := modelstest.New(t, models.DialectSQLite)
	s := newServer(t, env)
	srv := httptest.NewServer(s.handler)
	t.Cleanup(srv.Close)
	tr := openTagRoom(t, s, env.NewTenant(t, "Acme"), nil)
	signers := tr.participantIDs(t)
	tr.add(t, tagForm(signers[0]))
	if err := env.DB.DB.Exec(`UPDATE markup_rooms SET event_seq = ?`, models.MaxRoomEvents+5).Error; err != nil {
		t.Fatal(err)
	}
	tr.add(t, tagForm(signers[0], "x", "300")) // event 10,006: event 1 goes
	_, st := openStream(t, srv, tr.b, tr.path+"/events", map[string]string{"Last-Event-ID": "3"})
	if e := st.next(); e.Type != "reset" || e.ID != models.MaxRoomEvents+6 {
		t.Fatalf("after a number no longer kept: %+v", e)
	}
}

// Past MARKUPROOM_ROOM_STREAMS_PER_ROOM streams of one room, 429
// too_many_streams; an expired room's stream sends room_expired and
// closes, and a new one is refused (410).
func TestRoomEventStreamLimitAndEnd(t *testing.T) {
	t.Parallel()
	env := modelstest.New(t, models.DialectSQLite)
	env.Store = models.NewStore(env.DB, env.Bucket, models.StoreOptions{Now: env.Clock.Now, TempDir: t.TempDir(),
		PDF: modelstest.PDFWork(), RoomStreamsPerRoom: 2})
	s := newServer(t, env)
	srv := httptest.NewServer(s.handler)
	t.Cleanup(srv.Close)
	tr := openTagRoom(t, s, env.NewTenant(t, "Acme"), nil)
	_, one := openStream(t, srv, tr.b, tr.path+"/events", nil)
	openStream(t, srv, tr.b, tr.path+"/events", nil)
	req, _ := http.NewRequest(http.MethodGet, srv.URL+tr.path+"/events", nil)
	req.Header.Set("Accept", "application/problem+json")
	for _, c := range tr.b.cookies {
		req.AddCookie(c)
	}
	res, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var p struct {
		Status int
		Errors []models.FieldError
	}
	_ = json.NewDecoder(res.Body).Decode(&p)
	res.Body.Close()
	if res.StatusCode != http.StatusTooManyRequests || len(p.Errors) != 1 || p.Errors[0].Code != "too_many_streams" {
		t.Fatalf("a third stream of the room: %d %+v", res.StatusCode, p)
	}
	if err := env.Store.ExpireRoom(context.Background(), tr.room.ID); err != nil {
		t.Fatal(err)
	}
	if e := one.next(); e.Type != models.RoomEventRoomExpired {
		t.Fatalf("the room expired: %+v", e)
	}
	one.ended()
	if code, _ := openStream(t, srv, tr.b, tr.path+"/events", nil); code != http.StatusGone {
		t.Fatalf("the stream of an expired room: %d", code)
	}
}
