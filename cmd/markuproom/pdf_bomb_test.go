package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
	"github.com/markuproom/markuproom/models/pdfworker"
)

// TestPDFBombsLeaveTheServerUp runs the real binary as its own process and
// sends it decompression bombs, eight at once through each route that reads
// a PDF: the API upload and its alias (a 400 MiB object stream), the room
// upload (the same) and the room's page edits on a stored document replaced
// on disk by a 400 MiB content-stream bomb. Every request must be answered
// (422 pdf_expands_too_much, or 503 pdf_busy with Retry-After when no PDF
// slot came free), the server must stay up, and its peak RSS may grow by
// less than 256 MB over what it had after start-up and a warm-up request.
// Before the decode caps, one such upload grew the process by 2 GB.
func TestPDFBombsLeaveTheServerUp(t *testing.T) {
	if testing.Short() {
		t.Skip("short: builds and runs the server binary")
	}
	if runtime.GOOS != "linux" {
		t.Skip("reads peak RSS from /proc/<pid>/status (Linux only)")
	}
	bin := serverBinary(t)
	const decoded = 400 << 20
	// The default stream cap, sized from the default workers' memory.
	streamCap := pdf.MiB(pdf.LimitsForMemory(pdfworker.DefaultMemory, 50<<20).MaxStreamBytes)
	objectBomb := pdftest.Expanding{Pages: 3, ObjectStream: decoded}.Build(t)
	contentBomb := pdftest.Expanding{Pages: 3, Content: []int64{decoded}}.Build(t)
	// What is uploaded to the room and later replaced by the content bomb:
	// a harmless PDF at least as large (the page edit reads the stored size).
	padded := pdftest.Expanding{Pages: 3, Padding: len(contentBomb)}.Build(t)
	t.Logf("bombs: object stream %d bytes, content stream %d bytes, each decoding to %s", len(objectBomb), len(contentBomb), pdf.MiB(decoded))

	for name, databaseURL := range databases(t) {
		t.Run(name, func(t *testing.T) {
			s := startProcess(t, bin, databaseURL())
			client := &http.Client{Timeout: 60 * time.Second}

			// Warm-up: an upload, the room page, a page edit of a normal document.
			if res := s.apiUpload(t, client, "/api/v1/documents/upload", pdftest.ThreePages(t)); res.status != http.StatusCreated {
				t.Fatalf("warm-up upload: %d %s", res.status, res.body)
			}
			room := s.openRoom(t)
			if res := room.upload(t, padded); res.status != http.StatusOK {
				t.Fatalf("room upload of the padded PDF: %d %s", res.status, res.body)
			}
			pos := room.lastDocument(t)
			blobPath := s.blobHolding(t, padded)
			baseRSS, baseHWM := s.memory(t)

			check := func(route string, results []answer) {
				t.Helper()
				counts := map[string]int{}
				for _, r := range results {
					switch {
					case r.status == http.StatusUnprocessableEntity && r.code == "pdf_expands_too_much":
						if !strings.Contains(r.detail, "expands to more than "+streamCap+" when decoded") {
							t.Errorf("%s: 422 detail %q", route, r.detail)
						}
					case r.status == http.StatusServiceUnavailable && r.code == "pdf_busy":
						if n, err := strconv.Atoi(r.retryAfter); err != nil || n < 1 {
							t.Errorf("%s: 503 with Retry-After %q", route, r.retryAfter)
						}
					default:
						t.Errorf("%s: answered %d %s", route, r.status, r.body)
					}
					counts[fmt.Sprintf("%d", r.status)]++
				}
				t.Logf("%s: %v", route, counts)
			}
			check("POST /api/v1/documents/upload", eightAtOnce(func() answer {
				return s.apiUpload(t, client, "/api/v1/documents/upload", objectBomb)
			}))
			check("POST /api/v1/document/upload", eightAtOnce(func() answer {
				return s.apiUpload(t, client, "/api/v1/document/upload", objectBomb)
			}))
			check("POST /rooms/:id/documents", eightAtOnce(func() answer { return room.upload(t, objectBomb) }))

			if err := os.WriteFile(blobPath, contentBomb, 0o600); err != nil {
				t.Fatal(err)
			}
			var n sync.Mutex
			i := 0
			check("POST /rooms/:id/documents/:position/pages/:page/{delete,move}", eightAtOnce(func() answer {
				n.Lock()
				i++
				even := i%2 == 0
				n.Unlock()
				if even {
					return room.post(t, fmt.Sprintf("/documents/%d/pages/2/delete", pos), url.Values{})
				}
				return room.post(t, fmt.Sprintf("/documents/%d/pages/1/move", pos), url.Values{"to": {"3"}})
			}))

			// A browser posting the form without htmx gets a page that says so.
			res := room.postHTML(t, fmt.Sprintf("/documents/%d/pages/2/delete", pos))
			if res.status != http.StatusUnprocessableEntity || !strings.Contains(res.body, "expands to more than "+streamCap+" when decoded") {
				t.Errorf("plain form post: %d %.300s", res.status, res.body)
			}

			health, err := client.Get(s.base + "/healthz")
			if err != nil || health.StatusCode != http.StatusOK {
				t.Fatalf("the server is down after the bombs: %v %v\n%s", err, health, s.stderr.String())
			}
			health.Body.Close()
			_, hwm := s.memory(t)
			growth := hwm - baseHWM
			t.Logf("BOMB peak RSS growth: %d MB (%s; VmHWM %d MB after vs %d MB after warm-up; VmRSS after warm-up %d MB)",
				growth>>20, name, hwm>>20, baseHWM>>20, baseRSS>>20)
			if growth >= 256<<20 {
				t.Errorf("peak RSS grew by %d MB, budget 256 MB", growth>>20)
			}
		})
	}
}

// answer is what the test needs from a response.
type answer struct {
	status     int
	body       string
	code       string // errors[0].code of a problem body
	detail     string
	retryAfter string
}

func eightAtOnce(do func() answer) []answer {
	out := make([]answer, 8)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range out {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			out[i] = do()
		}()
	}
	close(start)
	wg.Wait()
	return out
}

func readAnswer(res *http.Response, err error) answer {
	if err != nil {
		return answer{status: -1, body: err.Error()}
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	a := answer{status: res.StatusCode, body: string(b), retryAfter: res.Header.Get("Retry-After")}
	var p struct {
		Detail string
		Errors []struct{ Code string }
	}
	if json.Unmarshal(b, &p) == nil && len(p.Errors) > 0 {
		a.code, a.detail = p.Errors[0].Code, p.Detail
	}
	return a
}

// process is the server running as a child process.
type process struct {
	cmd     *exec.Cmd
	base    string
	dataDir string
	token   string
	roomURL string
	stderr  *modelstest.LogBuffer
}

func startProcess(t *testing.T, bin, databaseURL string) *process {
	t.Helper()
	dir := t.TempDir()
	return newProcess(startNode(t, bin, dir, databaseURL), dir)
}

// newProcess is the started node n (data in dir) with the demo's token and room.
func newProcess(n *node, dir string) *process {
	out := n.stdout.String()
	return &process{cmd: n.cmd, base: n.base, dataDir: dir, stderr: n.stderr,
		token: fieldAfter(out, "API token"), roomURL: regexp.MustCompile(`http://\S+/markup-room/\S+`).FindString(out)}
}

// memory reads VmRSS and VmHWM (peak RSS) of the process, in bytes.
func (p *process) memory(t *testing.T) (rss, hwm int64) {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		kb, _ := strconv.ParseInt(f[1], 10, 64)
		switch f[0] {
		case "VmRSS:":
			rss = kb << 10
		case "VmHWM:":
			hwm = kb << 10
		}
	}
	if rss == 0 || hwm == 0 {
		t.Fatalf("no VmRSS/VmHWM in /proc status:\n%s", b)
	}
	return rss, hwm
}

func (p *process) apiUpload(t *testing.T, client *http.Client, path string, body []byte) answer {
	req, err := http.NewRequest(http.MethodPost, p.base+path, bytes.NewReader(body))
	if err != nil {
		t.Error(err)
		return answer{}
	}
	req.Header.Set("Authorization", "Bearer "+p.token)
	req.Header.Set("Content-Type", "application/pdf")
	return readAnswer(client.Do(req))
}

// blobHolding finds the stored file whose content is b.
func (p *process) blobHolding(t *testing.T, b []byte) string {
	t.Helper()
	var found string
	_ = filepath.WalkDir(p.dataDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || found != "" || !strings.HasSuffix(path, ".pdf") {
			return nil
		}
		if c, err := os.ReadFile(path); err == nil && bytes.Equal(c, b) {
			found = path
		}
		return nil
	})
	if found == "" {
		t.Fatalf("no stored file holds the uploaded PDF under %s", p.dataDir)
	}
	return found
}

// browserRoom is a browser session bound to the demo room.
type browserRoom struct {
	client *http.Client
	base   string // .../rooms/<id>
	csrf   string
}

func (p *process) openRoom(t *testing.T) *browserRoom {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar, Timeout: 60 * time.Second}
	res, err := client.Get(p.roomURL)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	m := regexp.MustCompile(`name="csrf-token" content="([^"]+)"`).FindSubmatch(body)
	if res.StatusCode != http.StatusOK || m == nil || !strings.Contains(res.Request.URL.Path, "/rooms/") {
		t.Fatalf("open the room: %d at %s, csrf found %v", res.StatusCode, res.Request.URL, m != nil)
	}
	return &browserRoom{client: client, base: p.base + res.Request.URL.Path, csrf: string(m[1])}
}

// lastDocument returns the highest document position the room page links to.
func (r *browserRoom) lastDocument(t *testing.T) int {
	t.Helper()
	res, err := r.client.Get(r.base)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	last := -1
	for _, m := range regexp.MustCompile(`/documents/(\d+)/remove`).FindAllSubmatch(body, -1) {
		if n, _ := strconv.Atoi(string(m[1])); n > last {
			last = n
		}
	}
	if last < 0 {
		t.Fatalf("the room page links no document")
	}
	return last
}

func (r *browserRoom) upload(t *testing.T, pdfBytes []byte) answer {
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	_ = w.WriteField("csrf", r.csrf)
	fw, _ := w.CreateFormFile("file", "bomb.pdf")
	_, _ = fw.Write(pdfBytes)
	_ = w.Close()
	req, err := http.NewRequest(http.MethodPost, r.base+"/documents", &body)
	if err != nil {
		t.Error(err)
		return answer{}
	}
	req.Header.Set("Content-Type", w.FormDataContentType())
	req.Header.Set("HX-Request", "true")
	return readAnswer(r.client.Do(req))
}

func (r *browserRoom) post(t *testing.T, path string, form url.Values) answer {
	form.Set("csrf", r.csrf)
	req, err := http.NewRequest(http.MethodPost, r.base+path, strings.NewReader(form.Encode()))
	if err != nil {
		t.Error(err)
		return answer{}
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("HX-Request", "true")
	return readAnswer(r.client.Do(req))
}

// postHTML posts a page edit form as a browser without htmx does.
func (r *browserRoom) postHTML(t *testing.T, path string) answer {
	req, err := http.NewRequest(http.MethodPost, r.base+path, strings.NewReader(url.Values{"csrf": {r.csrf}}.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "text/html")
	return readAnswer(r.client.Do(req))
}
