package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/tagtype"
)

// The operations of the mixed scenario, in the order the report lists them.
const (
	opUpload     = "POST /api/v1/documents/upload"
	opCreate     = "POST /api/v1/transactions"
	opReplay     = "POST /api/v1/transactions (same Idempotency-Key again)"
	opPut        = "PUT /api/v1/transactions/{id}"
	opGet        = "GET /api/v1/transactions/{id}"
	opList       = "GET /api/v1/transactions"
	opRoom       = "POST /api/v1/markup-rooms"
	opRoomOpen   = "GET /markup-room/{token} (room link)"
	opTagAdd     = "POST /rooms/{id}/tags"
	opTagMove    = "PUT /rooms/{id}/tags/{tagId}"
	opTagDelete  = "DELETE /rooms/{id}/tags/{tagId}"
	opAdminList  = "GET /admin/transactions"
	opAdminTx    = "GET /admin/transactions/{id}"
	opAdminLogin = "POST /admin/login"
)

var soakOps = []string{opUpload, opCreate, opReplay, opPut, opGet, opList, opRoom, opRoomOpen, opTagAdd, opTagMove, opTagDelete, opAdminList, opAdminTx, opAdminLogin}

// soakMix is the schedule: tick i runs soakMix[i%len(soakMix)] (20 ticks:
// 5 PUTs, 3 reads, 2 lists, 2 creates, 1 upload, 1 room, 4 room tag edits,
// 2 admin page views). A room's creation also opens its link (opRoomOpen);
// every other create is sent again with its Idempotency-Key (opReplay).
var soakMix = []string{
	opPut, opGet, opTagAdd, opCreate, opPut, opList, opAdminList, opTagAdd,
	opPut, opGet, opUpload, opRoom, opPut, opTagAdd, opCreate, opAdminTx,
	opPut, opList, opGet, opTagAdd,
}

// opStats are one operation's figures.
type opStats struct {
	lat     []time.Duration
	ok      int
	errs    int
	skipped int // no target free (every transaction or room busy), or no request slot
	samples []string
}

// soakTx is one transaction the load created and what was acknowledged.
type soakTx struct {
	mu      sync.Mutex
	i       int
	id      string
	pending bool  // created as esign_pending with e-mail invitations: never replaced
	acked   int   // the last acknowledged version (0: the create)
	puts    int   // acknowledged PUTs
	doubt   []int // versions of PUTs that failed after acked: maybe stored
	failed  int   // failed PUTs (each may or may not have been applied)
}

// soakRoom is one room, a browser session bound to it and its acknowledged tags.
type soakRoom struct {
	mu       sync.Mutex
	id       string
	txID     string
	client   *http.Client
	base     string // http://host/rooms/{id}
	csrf     string
	k        int
	live     map[string]int // tag id → acknowledged x
	order    []string       // live tag ids, oldest first
	deleted  []string
	doubt    map[string]bool // tags whose last edit failed: state unknown
	addFails int             // failed adds (a tag may or may not exist)
}

// soakLoad is the load's state: what exists, what was acknowledged.
type soakLoad struct {
	e      *soakEnv
	o      soakOptions
	client *http.Client
	pdf    []byte

	mu             sync.Mutex
	stats          map[string]*opStats
	docs           []soakDoc // acknowledged uploads
	uploadFails    int
	txs            []*soakTx
	createFails    int
	rooms          []*soakRoom
	roomFails      int
	adminClient    *http.Client
	adminMu        sync.Mutex
	replays        int          // creates sent again with their Idempotency-Key
	replayMismatch []string     // replays answered with another transaction
	nextTx         atomic.Int64 // the index of the next transaction created (its references are soak-tx<i>-v<version>)
}

type soakDoc struct{ id, gcsRefID, location string }

func newSoakLoad(e *soakEnv, o soakOptions) *soakLoad {
	l := &soakLoad{e: e, o: o, client: newClient(64), stats: map[string]*opStats{}}
	l.client.Timeout = 30 * time.Second
	for _, op := range soakOps {
		l.stats[op] = &opStats{}
	}
	return l
}

// record counts one request of op.
func (l *soakLoad) record(op string, d time.Duration, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := l.stats[op]
	s.lat = append(s.lat, d)
	if err == nil {
		s.ok++
		return
	}
	s.errs++
	if msg := err.Error(); len(s.samples) < 3 && !slices.Contains(s.samples, msg) {
		s.samples = append(s.samples, msg)
	}
}

func (l *soakLoad) skip(op string) {
	l.mu.Lock()
	l.stats[op].skipped++
	l.mu.Unlock()
}

// setup makes the first targets: an upload, a webhook on the sink, four
// draft transactions, two rooms and the admin session. These writes are
// acknowledged like the load's and checked with them.
func (l *soakLoad) setup(ctx context.Context) error {
	var err error
	if l.pdf, err = pdf.Sample(3, "Soak"); err != nil {
		return err
	}
	if err := l.upload(ctx); err != nil {
		return err
	}
	status, b, err := l.api(ctx, http.MethodPost, "/api/v1/webhooks", map[string]any{
		"url": l.e.hookURL + "/hook", "events": []string{"transaction.updated", "transaction.esign_pending"}})
	if err != nil || status != http.StatusCreated {
		return fmt.Errorf("register the webhook: %d %s %v", status, b, err)
	}
	for range 4 {
		if err := l.create(ctx, false); err != nil {
			return err
		}
	}
	for range 2 {
		if err := l.createRoom(ctx); err != nil {
			return err
		}
	}
	return l.adminLogin(ctx)
}

// run sends the mix at o.rate for o.duration, open loop: request i leaves at
// start + i/rate whether or not earlier ones have finished (at most
// o.inflight at a time). middle runs once, half-way. It waits for the
// requests in flight (each has a 30 s timeout) and returns the time taken.
func (l *soakLoad) run(ctx context.Context, middle func()) (time.Duration, error) {
	interval := time.Duration(float64(time.Second) / l.o.rate)
	start := time.Now()
	end := start.Add(l.o.duration)
	slots := make(chan struct{}, l.o.inflight)
	var wg sync.WaitGroup
	midDone := false
	for i := 0; ; i++ {
		at := start.Add(time.Duration(i) * interval)
		if !at.Before(end) {
			break
		}
		if !midDone && !at.Before(start.Add(l.o.duration/2)) {
			midDone = true
			wg.Go(middle) // beside the schedule, not in its way
		}
		select {
		case <-ctx.Done():
			wg.Wait()
			return time.Since(start), ctx.Err()
		case <-time.After(time.Until(at)):
		}
		op := soakMix[i%len(soakMix)]
		select {
		case slots <- struct{}{}:
		default:
			l.skip(op)
			continue
		}
		wg.Go(func() {
			defer func() { <-slots }()
			l.do(ctx, op, i)
		})
	}
	wg.Wait()
	return time.Since(start), ctx.Err()
}

// do runs one operation; its request(s) are recorded.
func (l *soakLoad) do(ctx context.Context, op string, i int) {
	switch op {
	case opUpload:
		_ = l.upload(ctx)
	case opCreate:
		_ = l.create(ctx, i%(2*len(soakMix)) < len(soakMix)) // every other create sends invitations
	case opPut:
		l.put(ctx)
	case opGet:
		if tx := l.pickTx(false); tx != nil {
			l.timed(op, func() error {
				return l.expect(ctx, http.MethodGet, "/api/v1/transactions/"+tx.id, nil, http.StatusOK, nil)
			})
		}
	case opList:
		l.timed(op, func() error {
			return l.expect(ctx, http.MethodGet, "/api/v1/transactions?limit=20", nil, http.StatusOK, nil)
		})
	case opRoom:
		_ = l.createRoom(ctx)
	case opTagAdd:
		l.editTag(ctx, i)
	case opAdminList:
		l.adminGet(ctx, opAdminList, "/admin/transactions")
	case opAdminTx:
		if tx := l.pickTx(false); tx != nil {
			l.adminGet(ctx, opAdminTx, "/admin/transactions/"+tx.id)
		}
	}
}

// errors is the number of failed requests so far.
func (l *soakLoad) errors() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, s := range l.stats {
		n += s.errs
	}
	return n
}

// timed runs fn and records it as op.
func (l *soakLoad) timed(op string, fn func() error) error {
	t0 := time.Now()
	err := fn()
	l.record(op, time.Since(t0), err)
	return err
}

// api sends a JSON request with the API token and returns the status and body.
func (l *soakLoad) api(ctx context.Context, method, path string, body any, header ...string) (int, []byte, error) {
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return 0, nil, err
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, l.e.srv.base+path, r)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Authorization", "Bearer "+l.e.token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return roundTrip(l.client, req)
}

// roundTrip sends req and reads the whole answer.
func roundTrip(client *http.Client, req *http.Request) (int, []byte, error) {
	res, err := client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return res.StatusCode, b, err
}

// expect sends an API request and decodes the answer into out when its
// status is want; any other status is an error.
func (l *soakLoad) expect(ctx context.Context, method, path string, body any, want int, out any, header ...string) error {
	status, b, err := l.api(ctx, method, path, body, header...)
	return checkAnswer(method, path, status, b, err, want, out)
}

func checkAnswer(method, path string, status int, b []byte, err error, want int, out any) error {
	if err != nil {
		return err
	}
	if status != want {
		return fmt.Errorf("%s %s: %d %s", method, path, status, bytes.TrimSpace(b[:min(len(b), 200)]))
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			return fmt.Errorf("%s %s: %w", method, path, err)
		}
	}
	return nil
}

func (l *soakLoad) upload(ctx context.Context) error {
	var doc struct {
		ID       string `json:"id"`
		GCSRefID string `json:"gcsRefId"`
		Location string `json:"location"`
	}
	err := l.timed(opUpload, func() error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, l.e.srv.base+"/api/v1/documents/upload", bytes.NewReader(l.pdf))
		if err != nil {
			return err
		}
		req.Header.Set("Authorization", "Bearer "+l.e.token)
		req.Header.Set("Content-Type", "application/pdf")
		status, b, err := roundTrip(l.client, req)
		return checkAnswer(req.Method, req.URL.Path, status, b, err, http.StatusCreated, &doc)
	})
	l.mu.Lock()
	defer l.mu.Unlock()
	if err != nil {
		l.uploadFails++
		return err
	}
	l.docs = append(l.docs, soakDoc{id: doc.ID, gcsRefID: doc.GCSRefID, location: doc.Location})
	return nil
}

// doc is the i-th acknowledged upload (modulo their number).
func (l *soakLoad) doc(i int) soakDoc {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.docs[i%len(l.docs)]
}

// soakBody is transaction i's body at version v: its reference names the
// version and it has v%5+1 tags, so the stored row shows which version it holds.
func soakBody(gcsRefID string, i, v int, pending bool) map[string]any {
	tags := make([]map[string]any, v%5+1)
	for k := range tags {
		tags[k] = map[string]any{"type": tagtype.Signature, "x": 36 + k*70, "y": 36 + v%20*25, "width": 60, "height": 20,
			"signerId": "p1", "page": 1, "customData": map[string]any{}}
	}
	body := map[string]any{
		"status": "draft", "referenceId": soakRef(i, v),
		"documents": []map[string]any{{"gcsRefId": gcsRefID, "title": "Agreement", "sessionType": "esign", "type": "oath", "tags": tags}},
		"participants": []map[string]any{{"id": "p1", "email": fmt.Sprintf("pat%d@example.com", i), "firstName": "Pat", "lastName": "Buyer",
			"authenticationType": "none", "twoFactorContact": "email"}},
	}
	if pending {
		body["status"] = "esign_pending"
		body["notifyParticipants"] = map[string]any{"email": true}
	}
	return body
}

func soakRef(i, v int) string { return fmt.Sprintf("soak-tx%d-v%d", i, v) }

// create makes a transaction; pending ones queue an invitation e-mail.
func (l *soakLoad) create(ctx context.Context, pending bool) error {
	i := int(l.nextTx.Add(1)) - 1
	var tx struct {
		ID string `json:"id"`
	}
	d := l.doc(i)
	body, key := soakBody(d.gcsRefID, i, 0, pending), fmt.Sprintf("soak-create-%d", i)
	err := l.timed(opCreate, func() error {
		return l.expect(ctx, http.MethodPost, "/api/v1/transactions", body, http.StatusCreated, &tx, "Idempotency-Key", key)
	})
	if err != nil {
		l.mu.Lock()
		l.createFails++
		l.mu.Unlock()
		return err
	}
	// Every other create is sent again, as a client that lost the answer
	// would: the same key must answer with the same transaction, and
	// create nothing (the row counts check that).
	if i%2 == 1 {
		var again struct {
			ID string `json:"id"`
		}
		err := l.timed(opReplay, func() error {
			return l.expect(ctx, http.MethodPost, "/api/v1/transactions", body, http.StatusCreated, &again, "Idempotency-Key", key)
		})
		l.mu.Lock()
		l.replays++
		if err == nil && again.ID != tx.ID {
			l.replayMismatch = append(l.replayMismatch, fmt.Sprintf("key %s answered %s, then %s", key, tx.ID, again.ID))
		}
		l.mu.Unlock()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.txs = append(l.txs, &soakTx{i: i, id: tx.ID, pending: pending})
	return nil
}

// pickTx is a transaction: for a replace, a draft nobody else is
// replacing (locked: the caller unlocks it); else any.
func (l *soakLoad) pickTx(forPut bool) *soakTx {
	l.mu.Lock()
	txs := slices.Clone(l.txs)
	l.mu.Unlock()
	if len(txs) == 0 {
		return nil
	}
	start := rand.IntN(len(txs))
	if !forPut {
		return txs[start]
	}
	for k := range txs {
		tx := txs[(start+k)%len(txs)]
		if !tx.pending && tx.mu.TryLock() {
			return tx
		}
	}
	return nil
}

// put replaces a draft with its next version. Replaces of one transaction
// never overlap, so the last acknowledged one is what must be stored.
func (l *soakLoad) put(ctx context.Context) {
	tx := l.pickTx(true)
	if tx == nil {
		l.skip(opPut)
		return
	}
	defer tx.mu.Unlock()
	v := max(tx.acked, slices.Max(append(tx.doubt, 0))) + 1
	d := l.doc(tx.i)
	err := l.timed(opPut, func() error {
		return l.expect(ctx, http.MethodPut, "/api/v1/transactions/"+tx.id, soakBody(d.gcsRefID, tx.i, v, false), http.StatusCreated, nil) // the API answers a replace with 201
	})
	if err != nil {
		tx.failed++
		tx.doubt = append(tx.doubt, v)
		return
	}
	tx.acked, tx.doubt = v, nil
	tx.puts++
}

var (
	csrfMeta  = regexp.MustCompile(`<meta name="csrf-token" content="([^"]+)"`)
	csrfField = regexp.MustCompile(`name="csrf" value="([^"]+)"`)
)

// createRoom creates a room through the API and opens its link in a
// browser session of its own.
func (l *soakLoad) createRoom(ctx context.Context) error {
	d := l.doc(rand.IntN(1 << 20))
	var room struct {
		ID            string `json:"id"`
		URL           string `json:"url"`
		TransactionID string `json:"transactionId"`
	}
	err := l.timed(opRoom, func() error {
		return l.expect(ctx, http.MethodPost, "/api/v1/markup-rooms", json.RawMessage(roomBody(l.e.senderID, d.location)), http.StatusOK, &room)
	})
	if err != nil {
		l.mu.Lock()
		l.roomFails++
		l.mu.Unlock()
		return err
	}
	r := &soakRoom{id: room.ID, txID: room.TransactionID, live: map[string]int{}, doubt: map[string]bool{}}
	// Until its link is opened, the room exists but takes no edits.
	l.mu.Lock()
	l.rooms = append(l.rooms, r)
	l.mu.Unlock()
	r.mu.Lock()
	defer r.mu.Unlock()
	jar, _ := cookiejar.New(nil)
	r.client = &http.Client{Jar: jar, Timeout: 30 * time.Second, Transport: l.client.Transport}
	return l.timed(opRoomOpen, func() error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, room.URL, nil)
		if err != nil {
			return err
		}
		res, err := r.client.Do(req)
		if err != nil {
			return err
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		m := csrfMeta.FindSubmatch(b)
		if res.StatusCode != http.StatusOK || m == nil {
			return fmt.Errorf("GET room link: %d", res.StatusCode)
		}
		u := *res.Request.URL
		u.RawQuery = ""
		r.base, r.csrf = u.String(), string(m[1])
		return nil
	})
}

var tagIDAttr = regexp.MustCompile(`data-tag-id="([^"]+)"`)

// editTag adds, moves or deletes a tag in a room nobody else is editing:
// it adds while the room has fewer than 3 tags, else adds, moves the
// oldest or deletes the oldest in turn.
func (l *soakLoad) editTag(ctx context.Context, i int) {
	l.mu.Lock()
	rooms := slices.Clone(l.rooms)
	l.mu.Unlock()
	var r *soakRoom
	if len(rooms) == 0 {
		l.skip(opTagAdd)
		return
	}
	// Tick i edits room i/40 (mod the rooms), or the next free one: runs of
	// 8 edits per room, enough to add, move and delete.
	start := i / (2 * len(soakMix))
	for k := range rooms {
		c := rooms[(start+k)%len(rooms)]
		if c.mu.TryLock() {
			if c.base != "" {
				r = c
				break
			}
			c.mu.Unlock()
		}
	}
	if r == nil {
		l.skip(opTagAdd)
		return
	}
	defer r.mu.Unlock()
	r.k++
	x := 36 + r.k%8*60
	form := url.Values{"documentPosition": {"0"}, "type": {tagtype.Signature}, "page": {"1"},
		"x": {fmt.Sprint(x)}, "y": {fmt.Sprint(400 + r.k/8%10*25)}, "width": {"60"}, "height": {"20"}}
	send := func(method, path string, want int) ([]byte, error) {
		var body io.Reader
		if method != http.MethodDelete {
			body = bytes.NewReader([]byte(form.Encode()))
		}
		req, err := http.NewRequestWithContext(ctx, method, r.base+path, body)
		if err != nil {
			return nil, err
		}
		if body != nil {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		req.Header.Set("HX-Request", "true")
		req.Header.Set("X-CSRF-Token", r.csrf)
		status, b, err := roundTrip(r.client, req)
		return b, checkAnswer(method, "/rooms/{id}"+path, status, b, err, want, nil)
	}
	switch {
	case len(r.order) < 3 || r.k%3 == 0:
		var id string
		err := l.timed(opTagAdd, func() error {
			b, err := send(http.MethodPost, "/tags", http.StatusCreated)
			if err != nil {
				return err
			}
			m := tagIDAttr.FindSubmatch(b)
			if m == nil {
				return fmt.Errorf("POST /rooms/{id}/tags: no data-tag-id in the answer")
			}
			id = string(m[1])
			return nil
		})
		if err != nil {
			r.addFails++
			return
		}
		r.live[id] = x
		r.order = append(r.order, id)
	case r.k%3 == 1:
		id := r.order[0]
		if err := l.timed(opTagMove, func() error { _, err := send(http.MethodPut, "/tags/"+id, http.StatusOK); return err }); err != nil {
			r.doubt[id] = true
			return
		}
		r.live[id] = x
		delete(r.doubt, id)
	default:
		id := r.order[0]
		if err := l.timed(opTagDelete, func() error { _, err := send(http.MethodDelete, "/tags/"+id, http.StatusOK); return err }); err != nil {
			r.doubt[id] = true
			return
		}
		delete(r.live, id)
		r.order = r.order[1:]
		r.deleted = append(r.deleted, id)
		delete(r.doubt, id)
	}
}

// adminLogin signs the admin in: the login page's CSRF field, then the form.
func (l *soakLoad) adminLogin(ctx context.Context) error {
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar, Timeout: 30 * time.Second, Transport: l.client.Transport}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, l.e.srv.base+"/admin/login", nil)
	if err != nil {
		return err
	}
	status, b, err := roundTrip(client, req)
	m := csrfField.FindSubmatch(b)
	if err != nil || status != http.StatusOK || m == nil {
		return fmt.Errorf("GET /admin/login: %d %v", status, err)
	}
	form := url.Values{"csrf": {string(m[1])}, "email": {l.e.adminEmail}, "password": {l.e.adminPassword}}
	err = l.timed(opAdminLogin, func() error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, l.e.srv.base+"/admin/login", bytes.NewReader([]byte(form.Encode())))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		status, b, err := roundTrip(client, req) // follows the 303 to the console
		if err == nil && (status != http.StatusOK || bytes.Contains(b, []byte(`name="password"`))) {
			err = fmt.Errorf("POST /admin/login: %d", status)
		}
		return err
	})
	if err != nil {
		return err
	}
	l.adminMu.Lock()
	l.adminClient = client
	l.adminMu.Unlock()
	return nil
}

// adminGet views a console page in the admin's session.
func (l *soakLoad) adminGet(ctx context.Context, op, path string) {
	l.adminMu.Lock()
	client := l.adminClient
	l.adminMu.Unlock()
	l.timed(op, func() error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, l.e.srv.base+path, nil)
		if err != nil {
			return err
		}
		res, err := client.Do(req)
		if err != nil {
			return err
		}
		defer res.Body.Close()
		_, err = io.Copy(io.Discard, res.Body)
		if err == nil && (res.StatusCode != http.StatusOK || res.Request.URL.Path != path) {
			err = fmt.Errorf("GET %s: %d at %s", op[len("GET "):], res.StatusCode, res.Request.URL.Path)
		}
		return err
	})
}
