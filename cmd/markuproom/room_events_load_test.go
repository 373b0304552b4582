package main

import (
	"bufio"
	"context"
	"encoding/base64"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/markuproom/markuproom/models/modelstest"
)

// TestRoomEventsLoad50Clients is the live room's load test (docs/live.md):
// the real binary, on PostgreSQL when TEST_DATABASE_URL names one (else
// SQLite); 50 clients, each its own browser session, follow one room's
// stream while 500 changes are made in it one after another. Every client
// must receive every event, in order, none twice; the delays from the start
// of each change's request to each client's receipt are logged (p50, p95,
// max: LOAD lines) and their p95 must stay within a second.
func TestRoomEventsLoad50Clients(t *testing.T) {
	if testing.Short() {
		t.Skip("short: a load test of the server binary")
	}
	const clients, changes = 50, 500
	bin := serverBinary(t)
	shared := map[string]string{
		"MARKUPROOM_SESSION_SECRET": "room-load-" + randomHex(t, 24),
		"MARKUPROOM_SECRET_KEY":     base64.StdEncoding.EncodeToString([]byte(randomHex(t, 16))),
		"MARKUPROOM_DEMO":           "false",
		"MARKUPROOM_RATE_LIMITS":    "off",
	}
	db := "SQLite"
	if os.Getenv(modelstest.PostgresURLEnv) != "" {
		shared["DATABASE_URL"], db = modelstest.PostgresSchemaURL(t), "PostgreSQL"
	}
	srv := startInstance(t, bin, "127.0.0.1", shared)
	srv.waitReady(t)
	room := newLiveRoom(t, bin, shared, srv)
	writer := newBrowser(t)
	csrf := csrfToken(t, writer.get(room.URL, http.StatusOK).body)

	var sent [changes + 1]atomic.Int64 // when change n's request started (unix ns)
	received := make([][]int64, clients)
	delays := make([][]time.Duration, clients)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var ready, done sync.WaitGroup
	for c := range clients {
		b := newBrowser(t)
		b.get(room.URL, http.StatusOK)     // its own room session
		stream := &http.Client{Jar: b.jar} // no timeout: a stream stays open
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.base+"/rooms/"+room.ID+"/events", nil)
		res, err := stream.Do(req)
		if err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("client %d's stream: %v %v", c, err, res)
		}
		ready.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			defer res.Body.Close()
			sc := bufio.NewScanner(res.Body)
			first := true
			defer func() {
				if first { // closed before a line: nothing to wait for
					ready.Done()
				}
			}()
			for sc.Scan() {
				if first {
					ready.Done() // the stream answered: its subscription is in place
					first = false
				}
				v, ok := strings.CutPrefix(sc.Text(), "id: ")
				if !ok {
					continue
				}
				n, _ := strconv.ParseInt(v, 10, 64)
				received[c] = append(received[c], n)
				if n >= 1 && n <= changes {
					delays[c] = append(delays[c], time.Since(time.Unix(0, sent[n].Load())))
				}
				if n == changes {
					return
				}
			}
		}()
	}
	ready.Wait()

	start := time.Now()
	for i := 1; i <= changes; i++ {
		form := url.Values{"csrf": {csrf}, "documentPosition": {"0"}, "type": {"SIGNATURETEMPLATE"}, "page": {strconv.Itoa(1 + i%3)},
			"x": {strconv.Itoa(40 + i%400)}, "y": {strconv.Itoa(60 + i%600)}, "width": {"100"}, "height": {"30"}}
		sent[i].Store(time.Now().UnixNano())
		writer.post(srv.base+"/rooms/"+room.ID+"/tags", form, http.StatusCreated)
	}
	wrote := time.Since(start)
	finished := make(chan struct{})
	go func() { done.Wait(); close(finished) }()
	select {
	case <-finished:
	case <-time.After(60 * time.Second):
		cancel()
		<-finished
	}

	var all []time.Duration
	for c := range clients {
		want := make([]int64, changes)
		for i := range want {
			want[i] = int64(i + 1)
		}
		if !slices.Equal(received[c], want) {
			t.Fatalf("client %d received %d events, not 1…%d in order (first %v, last %v)", c, len(received[c]), changes, head(received[c]), tail(received[c]))
		}
		all = append(all, delays[c]...)
	}
	slices.Sort(all)
	p := func(q float64) time.Duration { return all[int(float64(len(all))*q)-1] }
	t.Logf("LOAD %s: %d clients × %d changes (%d deliveries) in %s: delay from the change's request p50 %s, p95 %s, max %s",
		db, clients, changes, len(all), wrote.Round(time.Millisecond), p(0.50), p(0.95), all[len(all)-1])
	if p(0.95) > time.Second {
		t.Fatalf("p95 delivery %s is over a second", p(0.95))
	}
}

func head(s []int64) []int64 { return s[:min(5, len(s))] }
func tail(s []int64) []int64 { return s[max(0, len(s)-5):] }
