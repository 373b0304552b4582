package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// Bounds every hostile PDF must keep (docs/testing.md).
const (
	hostileAnswerTime = 10 * time.Second
	hostileGrowth     = 256 << 20 // peak RSS growth of one request
	hostileGrowthAll  = 512 << 20 // peak RSS growth of eight at once
	// hostileRSSKill is where the watchdog kills the server, so that a
	// file that would take gigabytes fails the test instead of the machine.
	hostileRSSKill = 2 << 30
	// hostileTimeout is how long the test waits for an answer at all.
	hostileTimeout = 20 * time.Second
	// maxDetectedText is the longest text of a detected tag.
	maxDetectedText = 255
)

// TestHostilePDFsLeaveTheServerUp runs the real binary as its own process
// and uploads every file of pdftest.HostileFiles through the API (and a
// couple through a room): each must be answered within 10 s, 201 (its
// detected tags then listed within 10 s, their texts at most 255
// characters) or 422 with a code, or 503 pdf_busy (never another 5xx),
// growing the process's peak RSS by less than 256 MB, with the server up
// after it. Then eight hostile uploads at once must grow it by less than
// 512 MB in all, and a 3 MB PUT of anchors against a document with much
// text must be answered within 10 s. Each request's answer, time and peak
// growth are logged on a HOSTILE line. A file that fails is followed by a
// fresh server, so every file is measured; a watchdog kills a server past
// 2 GiB of RSS.
func TestHostilePDFsLeaveTheServerUp(t *testing.T) {
	if testing.Short() {
		t.Skip("short: builds and runs the server binary")
	}
	if runtime.GOOS != "linux" {
		t.Skip("reads and resets peak RSS through /proc/<pid> (Linux only)")
	}
	bin := serverBinary(t)
	files := pdftest.HostileFiles()
	inRoom := map[string]bool{"field-names-116KB": true, "text-tags-622k": true}
	newRoom := map[string]bool{"field-names-105KB": true, "field-names-116KB": true, "text-tags-622k": true}

	for name, databaseURL := range databases(t) {
		t.Run(name, func(t *testing.T) {
			h := &hostileServer{t: t, bin: bin, databaseURL: databaseURL, db: name,
				client: &http.Client{Timeout: hostileTimeout}}
			h.start()

			for _, f := range files {
				got := h.measure("API upload "+f.Name, func() answer {
					return h.s.apiUpload(t, h.client, "/api/v1/documents/upload", f.PDF)
				})
				ok := h.checkUpload(got, hostileGrowth)
				if got.answers[0].status == http.StatusCreated && !got.died {
					ok = h.checkDetected(f.Name, got.answers[0]) && ok
					if newRoom[f.Name] && h.checkUp("API upload "+f.Name) {
						ok = h.createRoom(f.Name, got.answers[0]) && ok
					}
				}
				if inRoom[f.Name] && !got.died {
					room := h.s.openRoom(t)
					room.client.Timeout = hostileTimeout
					got := h.measure("room upload "+f.Name, func() answer { return room.upload(t, f.PDF) })
					ok = h.checkUpload(got, hostileGrowth) && ok
				}
				if !ok {
					h.restart()
				}
			}

			var next atomic.Int32
			all := h.measureAll("8 at once", func() []answer {
				return eightAtOnce(func() answer {
					f := files[int(next.Add(1)-1)%len(files)]
					return h.s.apiUpload(t, h.client, "/api/v1/documents/upload", f.PDF)
				})
			})
			for _, a := range all.answers {
				h.checkAnswer("8 at once", a)
			}
			if all.growth >= hostileGrowthAll {
				t.Errorf("8 at once: peak RSS grew by %d MB, budget %d MB", all.growth>>20, hostileGrowthAll>>20)
			}
			if !h.checkUp("8 at once") {
				h.restart()
			}

			h.anchorPut()
		})
	}
}

// hostileServer is the server under test, started again after a failure.
type hostileServer struct {
	t           *testing.T
	bin         string
	databaseURL func() string
	db          string
	client      *http.Client
	s           *process
	killed      atomic.Bool // by the watchdog
	stop        chan struct{}
}

func (h *hostileServer) start() {
	h.s = startProcess(h.t, h.bin, h.databaseURL())
	h.killed.Store(false)
	h.stop = make(chan struct{})
	go h.watch(h.s, h.stop)
	// Warm-up: an ordinary upload.
	if res := h.s.apiUpload(h.t, h.client, "/api/v1/documents/upload", pdftest.ThreePages(h.t)); res.status != http.StatusCreated {
		h.t.Fatalf("warm-up upload: %d %s", res.status, res.body)
	}
}

// restart kills the server and starts a fresh one (new data, new database).
func (h *hostileServer) restart() {
	close(h.stop)
	_ = h.s.cmd.Process.Kill()
	h.start()
}

// watch kills s when its RSS passes hostileRSSKill.
func (h *hostileServer) watch(s *process, stop chan struct{}) {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return
		case <-tick.C:
		}
		rss, _, err := readMemory(s.cmd.Process.Pid)
		if err != nil {
			return // exited
		}
		if rss > hostileRSSKill {
			h.killed.Store(true)
			_ = s.cmd.Process.Kill()
			return
		}
	}
}

// measured is one or more answers with the time they took and the peak RSS
// growth of the server while they ran.
type measured struct {
	what    string
	answers []answer
	elapsed time.Duration
	growth  int64
	died    bool
}

func (h *hostileServer) measure(what string, do func() answer) measured {
	return h.measureAll(what, func() []answer { return []answer{do()} })
}

// measureAll resets the server's peak RSS, runs do and reads the peak.
func (h *hostileServer) measureAll(what string, do func() []answer) measured {
	pid := h.s.cmd.Process.Pid
	if err := os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", pid), []byte("5"), 0); err != nil {
		h.t.Fatalf("reset peak RSS: %v", err)
	}
	before, _ := h.s.memory(h.t)
	start := time.Now()
	m := measured{what: what, answers: do()}
	m.elapsed = time.Since(start)
	if _, hwm, err := readMemory(pid); err == nil {
		m.growth = hwm - before
	} else {
		m.died = true
	}
	if h.killed.Load() {
		m.died = true
	}
	status := make([]string, len(m.answers))
	for i, a := range m.answers {
		status[i] = fmt.Sprint(a.status)
		if a.code != "" {
			status[i] += " " + a.code
		}
		if a.status <= 0 {
			status[i] = "no answer"
		}
	}
	note := ""
	if m.died {
		note = "  SERVER DOWN"
		if h.killed.Load() {
			note += fmt.Sprintf(" (killed by the watchdog at %d MB RSS)", hostileRSSKill>>20)
		}
	}
	h.t.Logf("HOSTILE %-8s | %-36s | %-40s | %6.2f s | %5d MB%s", h.db, what, strings.Join(status, ", "), m.elapsed.Seconds(), m.growth>>20, note)
	return m
}

// checkUpload checks one upload's answer, time, growth and the server.
func (h *hostileServer) checkUpload(m measured, budget int64) bool {
	h.t.Helper()
	ok := h.checkAnswer(m.what, m.answers[0])
	if m.elapsed >= hostileAnswerTime {
		h.t.Errorf("%s: answered after %s, bound %s", m.what, m.elapsed.Round(time.Millisecond), hostileAnswerTime)
		ok = false
	}
	if m.growth >= budget {
		h.t.Errorf("%s: peak RSS grew by %d MB, budget %d MB", m.what, m.growth>>20, budget>>20)
		ok = false
	}
	return h.checkUp(m.what) && ok
}

// checkAnswer accepts 2xx, a 422 with a code and 503 pdf_busy.
func (h *hostileServer) checkAnswer(what string, a answer) bool {
	h.t.Helper()
	switch {
	case a.status == http.StatusCreated || a.status == http.StatusOK:
	case a.status == http.StatusUnprocessableEntity && a.code != "":
	case a.status == http.StatusServiceUnavailable && a.code == "pdf_busy":
	default:
		h.t.Errorf("%s: answered %d %.300s", what, a.status, a.body)
		return false
	}
	return true
}

// checkUp checks that the server still answers /healthz.
func (h *hostileServer) checkUp(what string) bool {
	h.t.Helper()
	res, err := h.client.Get(h.s.base + "/healthz")
	if err != nil || res.StatusCode != http.StatusOK {
		h.t.Errorf("%s: the server is down: %v %v\n%.2000s", what, err, res, h.s.stderr.String())
		return false
	}
	res.Body.Close()
	return true
}

// checkDetected lists an accepted upload's detected tags: within the time
// bound, their texts at most 255 characters. The list is logged.
func (h *hostileServer) checkDetected(name string, up answer) bool {
	h.t.Helper()
	var doc struct{ ID string }
	if err := json.Unmarshal([]byte(up.body), &doc); err != nil || doc.ID == "" {
		h.t.Errorf("%s: upload answer %.300s", name, up.body)
		return false
	}
	start := time.Now()
	code, _, body := apiDo(h.client, http.MethodGet, h.s.base+"/api/v1/documents/"+doc.ID+"/detected-tags", h.s.token, nil)
	elapsed := time.Since(start)
	var found struct {
		Tags     []struct{ Text string }
		Problems []struct{ Code string }
	}
	if code != http.StatusOK || json.Unmarshal(body, &found) != nil {
		h.t.Errorf("%s: GET detected-tags: %d %.300s", name, code, body)
		return false
	}
	longest := 0
	for _, tag := range found.Tags {
		longest = max(longest, utf8.RuneCountInString(tag.Text))
	}
	problems := map[string]int{}
	for _, p := range found.Problems {
		problems[p.Code]++
	}
	h.t.Logf("HOSTILE %-8s | %-36s | %d tags (longest text %d), problems %v, %d bytes | %6.2f s", h.db, "detected tags "+name, len(found.Tags), longest, problems, len(body), elapsed.Seconds())
	ok := true
	if elapsed >= hostileAnswerTime {
		h.t.Errorf("%s: detected tags listed after %s", name, elapsed.Round(time.Millisecond))
		ok = false
	}
	if longest > maxDetectedText {
		h.t.Errorf("%s: a detected tag's text has %d characters, at most %d", name, longest, maxDetectedText)
		ok = false
	}
	return ok
}

// createRoom makes a room on an accepted upload (operation B places its
// detected tags) and reads its transaction back: both within the time and
// memory bounds, every placed tag's customData within the API's 64 KB.
func (h *hostileServer) createRoom(name string, up answer) bool {
	h.t.Helper()
	var doc struct{ Location string }
	_ = json.Unmarshal([]byte(up.body), &doc)
	var rooms struct{ Items []struct{ SenderID string } }
	code, _, body := apiDo(h.client, http.MethodGet, h.s.base+"/api/v1/markup-rooms", h.s.token, nil)
	if code != http.StatusOK || json.Unmarshal(body, &rooms) != nil || len(rooms.Items) == 0 {
		h.t.Errorf("%s: list rooms for a sender: %d %.300s", name, code, body)
		return false
	}
	room := map[string]any{"senderId": rooms.Items[0].SenderID, "documents": []string{doc.Location},
		"participants": []map[string]string{{"firstName": "Pat", "lastName": "Buyer", "email": "pat@example.com"},
			{"firstName": "Robin", "lastName": "Seller", "email": "robin@example.com"}}}
	var created struct{ TransactionID string }
	m := h.measure("new room on "+name, func() answer {
		code, _, body := apiDo(h.client, http.MethodPost, h.s.base+"/api/v1/markup-rooms", h.s.token, room)
		a := answer{status: code, body: string(body)}
		if code == 0 {
			a.status = -1
		}
		var p struct{ Errors []struct{ Code string } }
		if json.Unmarshal(body, &p) == nil && len(p.Errors) > 0 {
			a.code = p.Errors[0].Code
		}
		return a
	})
	if ok := h.checkUpload(m, hostileGrowth); !ok || m.answers[0].status/100 != 2 {
		return ok
	}
	_ = json.Unmarshal([]byte(m.answers[0].body), &created)
	var tx struct {
		Documents []struct {
			Tags []struct{ CustomData json.RawMessage }
		}
	}
	size := 0
	m = h.measure("read back room tx "+name, func() answer {
		code, _, body := apiDo(h.client, http.MethodGet, h.s.base+"/api/v1/transactions/"+created.TransactionID, h.s.token, nil)
		size = len(body)
		if code == http.StatusOK {
			_ = json.Unmarshal(body, &tx)
		}
		return answer{status: code}
	})
	ok := h.checkUpload(m, hostileGrowth)
	tags, largest := 0, 0
	for _, d := range tx.Documents {
		for _, tag := range d.Tags {
			tags++
			largest = max(largest, len(tag.CustomData))
		}
	}
	h.t.Logf("HOSTILE %-8s | %-36s | %d tags placed, largest customData %d bytes, transaction %d bytes", h.db, "room tags "+name, tags, largest, size)
	if largest > 64<<10 {
		h.t.Errorf("%s: a placed tag's customData is %d bytes, the API allows 64 KB", name, largest)
		ok = false
	}
	return ok
}

// anchorPut replaces a transaction with 3 MB of anchors: one document with
// much text listed 100 times, each time with 100 anchors of 200 characters
// that match a long prefix of every line. It must be answered within the
// time bound: refused with anchor_search_too_large.
func (h *hostileServer) anchorPut() {
	t := h.t
	up := h.s.apiUpload(t, h.client, "/api/v1/documents/upload", pdftest.BigText(40))
	var doc struct{ GCSRefID string }
	if up.status != http.StatusCreated || json.Unmarshal([]byte(up.body), &doc) != nil {
		t.Fatalf("upload of the text document: %d %.300s", up.status, up.body)
	}
	code, _, body := apiDo(h.client, http.MethodPost, h.s.base+"/api/v1/transactions", h.s.token, versionBody(doc.GCSRefID, 0, 0))
	var tx struct{ ID string }
	if code != http.StatusCreated || json.Unmarshal(body, &tx) != nil {
		t.Fatalf("create the transaction: %d %.300s", code, body)
	}
	const line = "the parties agree that each term of this agreement binds them and their successors. "
	put := versionBody(doc.GCSRefID, 0, 1)
	listings := make([]map[string]any, 100)
	for i := range listings {
		anchors := make([]map[string]any, 100)
		for j := range anchors {
			a := line + fmt.Sprintf("(listing %d, anchor %d)", i, j)
			anchors[j] = map[string]any{"anchor": a + strings.Repeat("~", 200-len(a)), "type": "SIGNATURETEMPLATE", "signerId": "p1", "ifMissing": "ignore"}
		}
		listings[i] = map[string]any{"gcsRefId": doc.GCSRefID, "title": fmt.Sprint("Terms ", i), "sessionType": "esign", "type": "oath",
			"tags": []any{}, "anchorTags": anchors}
	}
	put["documents"] = listings
	size := len(jsonOf(put))
	m := h.measure(fmt.Sprintf("anchor PUT (%.1f MB)", float64(size)/(1<<20)), func() answer {
		code, _, body := apiDo(h.client, http.MethodPut, h.s.base+"/api/v1/transactions/"+tx.ID, h.s.token, put)
		a := answer{status: code, body: string(body)}
		var p struct{ Errors []struct{ Code string } }
		if json.Unmarshal(body, &p) == nil && len(p.Errors) > 0 {
			a.code = p.Errors[0].Code
		}
		if code == 0 {
			a.status = -1
		}
		return a
	})
	if a := m.answers[0]; a.status != http.StatusUnprocessableEntity || a.code != "anchor_search_too_large" {
		t.Errorf("anchor PUT: %d %.300s, want 422 anchor_search_too_large", a.status, a.body)
	}
	h.checkUpload(m, hostileGrowth)
}

// readMemory reads VmRSS and VmHWM of process pid, in bytes.
func readMemory(pid int) (rss, hwm int64, err error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		var kb int64
		if n, _ := fmt.Sscanf(line, "VmRSS: %d kB", &kb); n == 1 {
			rss = kb << 10
		}
		if n, _ := fmt.Sscanf(line, "VmHWM: %d kB", &kb); n == 1 {
			hwm = kb << 10
		}
	}
	if rss == 0 || hwm == 0 {
		return 0, 0, fmt.Errorf("no VmRSS/VmHWM for %d (exited?)", pid)
	}
	return rss, hwm, nil
}
