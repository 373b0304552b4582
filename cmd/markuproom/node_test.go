package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/markuproom/markuproom/models/modelstest"
)

// node is one run of the server binary on a data directory and database
// that outlive it.
type node struct {
	cmd    *exec.Cmd
	base   string
	stdout *modelstest.LogBuffer
	stderr *modelstest.LogBuffer
	exited chan struct{}
}

// startNode runs bin on dir and databaseURL (empty: SQLite in dir) with the
// demo seeded into an empty database, and waits until /readyz answers 200
// and the start-up lines (the demo's, on a first start) are printed. The
// process is interrupted (then killed) when the test ends.
func startNode(t *testing.T, bin, dir, databaseURL string, env ...string) *node {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	cmd := exec.Command(bin)
	cmd.Env = append(append(os.Environ(),
		"MARKUPROOM_DATA_DIR="+dir, "MARKUPROOM_ADDR="+addr, "MARKUPROOM_BASE_URL=http://"+addr,
		"MARKUPROOM_DEMO=true", "MARKUPROOM_LOG_LEVEL=error", "MARKUPROOM_RATE_LIMITS=off",
		"DATABASE_URL="+databaseURL), env...)
	n := &node{cmd: cmd, base: "http://" + addr, stdout: &modelstest.LogBuffer{}, stderr: &modelstest.LogBuffer{}, exited: make(chan struct{})}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = n.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _, _ = io.Copy(n.stdout, bufio.NewReader(out)); _ = cmd.Wait(); close(n.exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		select {
		case <-n.exited:
		case <-time.After(15 * time.Second):
			_ = cmd.Process.Kill()
			<-n.exited
		}
	})
	deadline := time.Now().Add(60 * time.Second)
	for {
		res, err := http.Get(n.base + "/readyz")
		if err == nil {
			res.Body.Close()
			// Printed after the demo's lines, on every start.
			printed := strings.Contains(n.stdout.String(), "Markup Room is listening on")
			if res.StatusCode == http.StatusOK && printed {
				return n
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("server not ready: %s\n%s", n.stdout, n.stderr)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// kill ends the process with SIGKILL: no shutdown, no deferred work.
func (n *node) kill(t *testing.T) {
	t.Helper()
	if err := n.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-n.exited
}

// apiDo sends a JSON API request and returns status, headers and body ("" status 0: no answer).
func apiDo(client *http.Client, method, u, token string, body any, header ...string) (int, http.Header, []byte) {
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, u, r)
	if err != nil {
		return 0, nil, nil
	}
	req.Header.Set("Authorization", "Bearer "+token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := client.Do(req)
	if err != nil {
		return 0, nil, nil
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header, b
}

// dbURLOr is the database a node with DATABASE_URL u and data directory
// dir uses: u, or the SQLite file in dir.
func dbURLOr(u, dir string) string {
	if u != "" {
		return u
	}
	return "sqlite://" + filepath.Join(dir, "markuproom.db")
}
