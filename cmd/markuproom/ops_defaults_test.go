package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/markuproom/markuproom/models/modelstest"
)

func TestDemoDefaultsOnOnlyForTheEmbeddedDatabase(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		want bool
	}{
		{"embedded default", map[string]string{}, true},
		{"embedded default, demo off", map[string]string{"MARKUPROOM_DEMO": "false"}, false},
		{"PostgreSQL", map[string]string{"DATABASE_URL": "postgres://db.example/markuproom"}, false},
		{"PostgreSQL, demo asked for", map[string]string{"DATABASE_URL": "postgres://db.example/markuproom", "MARKUPROOM_DEMO": "true"}, true},
		{"explicit SQLite file", map[string]string{"DATABASE_URL": "sqlite:///var/lib/markuproom/db.sqlite"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := loadConfig(func(k string) string { return tc.env[k] })
			if err != nil {
				t.Fatal(err)
			}
			if c.Demo != tc.want {
				t.Fatalf("Demo = %v, want %v", c.Demo, tc.want)
			}
		})
	}
}

func TestMetricsSettingsAreChecked(t *testing.T) {
	_, err := loadConfig(func(k string) string {
		return map[string]string{"MARKUPROOM_METRICS_TOKEN": "short", "MARKUPROOM_METRICS_ADDR": "9090"}[k]
	})
	if err == nil || !strings.Contains(err.Error(), "MARKUPROOM_METRICS_TOKEN") || !strings.Contains(err.Error(), "MARKUPROOM_METRICS_ADDR") {
		t.Fatalf("err = %v", err)
	}
	if strings.Contains(err.Error(), "short") {
		t.Fatalf("the token was printed: %v", err)
	}
}

// TestServeSeedsDemoDataOnlyWhenAskedWithADatabaseURL starts the real server
// on a DATABASE_URL (an explicit SQLite file, and PostgreSQL when
// TEST_DATABASE_URL is set): no demo data, no printed password or token;
// MARKUPROOM_DEMO=true on a fresh database still seeds it.
func TestServeSeedsDemoDataOnlyWhenAskedWithADatabaseURL(t *testing.T) {
	urls := map[string]func() string{"sqlite": func() string { return "sqlite://" + filepath.Join(t.TempDir(), "prod.db") }}
	if os.Getenv(modelstest.PostgresURLEnv) != "" {
		urls["postgres"] = func() string { return modelstest.PostgresSchemaURL(t) }
	}
	for name, dbURL := range urls {
		t.Run(name, func(t *testing.T) {
			s := startServer(t, map[string]string{"MARKUPROOM_DATA_DIR": t.TempDir(), "DATABASE_URL": dbURL()})
			out := s.stdout.String()
			s.stop()
			for _, leak := range []string{"demo data", "mrt_", "password", "/markup-room/"} {
				if strings.Contains(out, leak) {
					t.Fatalf("a production database got demo data (%q):\n%s", leak, out)
				}
			}
			s = startServer(t, map[string]string{"MARKUPROOM_DATA_DIR": t.TempDir(), "DATABASE_URL": dbURL(), "MARKUPROOM_DEMO": "true"})
			out = s.stdout.String()
			s.stop()
			if !strings.Contains(out, "Markup Room demo data") || !strings.Contains(out, "mrt_") {
				t.Fatalf("MARKUPROOM_DEMO=true printed no demo block:\n%s", out)
			}
		})
	}
}

func TestServeMetricsAccess(t *testing.T) {
	t.Run("neither set: not served, and the log says how", func(t *testing.T) {
		s := startServer(t, map[string]string{"MARKUPROOM_DATA_DIR": t.TempDir(), "MARKUPROOM_DEMO": "false"})
		defer s.stop()
		if code, _ := s.get(t, s.base+"/metrics", ""); code != http.StatusNotFound {
			t.Fatalf("/metrics = %d, want 404", code)
		}
		logs := s.stderr.String()
		if !strings.Contains(logs, "/metrics is not served") || !strings.Contains(logs, "MARKUPROOM_METRICS_TOKEN") || !strings.Contains(logs, "MARKUPROOM_METRICS_ADDR") {
			t.Fatalf("start-up log does not say how to serve metrics:\n%s", logs)
		}
	})
	t.Run("token: only with it", func(t *testing.T) {
		token := "scrape-0123456789abcdef"
		s := startServer(t, map[string]string{"MARKUPROOM_DATA_DIR": t.TempDir(), "MARKUPROOM_DEMO": "false", "MARKUPROOM_METRICS_TOKEN": token})
		defer s.stop()
		if code, _ := s.get(t, s.base+"/metrics", ""); code != http.StatusUnauthorized {
			t.Fatalf("/metrics without the token = %d, want 401", code)
		}
		if code, _ := s.get(t, s.base+"/metrics", "not-"+token); code != http.StatusUnauthorized {
			t.Fatalf("/metrics with a wrong token = %d, want 401", code)
		}
		if code, body := s.get(t, s.base+"/metrics", token); code != http.StatusOK || !strings.Contains(body, "go_goroutines") {
			t.Fatalf("/metrics with the token = %d\n%.300s", code, body)
		}
		if strings.Contains(s.stderr.String(), token) {
			t.Fatal("the metrics token was logged")
		}
	})
	t.Run("separate listener", func(t *testing.T) {
		addr := freeAddr(t)
		s := startServer(t, map[string]string{"MARKUPROOM_DATA_DIR": t.TempDir(), "MARKUPROOM_DEMO": "false", "MARKUPROOM_METRICS_ADDR": addr})
		if code, body := s.get(t, "http://"+addr+"/metrics", ""); code != http.StatusOK || !strings.Contains(body, "go_goroutines") {
			t.Fatalf("separate /metrics = %d\n%.300s", code, body)
		}
		if code, _ := s.get(t, "http://"+addr+"/api/v1/documents/x", ""); code != http.StatusNotFound {
			t.Fatalf("the metrics listener serves the API: %d", code)
		}
		if code, _ := s.get(t, s.base+"/metrics", ""); code != http.StatusNotFound {
			t.Fatalf("main /metrics without a token configured = %d, want 404", code)
		}
		if code := s.stop(); code != 0 {
			t.Fatalf("exit %d", code)
		}
		if _, err := http.Get("http://" + addr + "/metrics"); err == nil {
			t.Fatal("the metrics listener outlived the server")
		}
	})
}

// testServer is the real server run in-process by startServer.
type testServer struct {
	base           string
	stdout, stderr *modelstest.LogBuffer
	stop           func() int
}

func (s *testServer) get(t *testing.T, url, token string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// startServer runs the server (logs at info) with env until it answers /readyz;
// stop is idempotent and also runs at the end of the test.
func startServer(t *testing.T, env map[string]string) *testServer {
	t.Helper()
	addr := freeAddr(t)
	env["MARKUPROOM_ADDR"], env["MARKUPROOM_BASE_URL"], env["MARKUPROOM_LOG_LEVEL"] = addr, "http://"+addr, "info"
	ctx, cancel := context.WithCancel(context.Background())
	s := &testServer{base: "http://" + addr, stdout: &modelstest.LogBuffer{}, stderr: &modelstest.LogBuffer{}}
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, nil, func(k string) string { return env[k] }, strings.NewReader(""), s.stdout, s.stderr)
	}()
	code, stopped := 0, false
	s.stop = func() int {
		if !stopped {
			cancel()
			code, stopped = <-done, true
		}
		return code
	}
	t.Cleanup(func() { s.stop() })
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		select {
		case c := <-done:
			code, stopped = c, true
			t.Fatalf("server exited with %d: %s", c, s.stderr.String())
		default:
		}
		if res, err := http.Get(s.base + "/readyz"); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return s
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("server did not become ready: %s", s.stderr.String())
		}
	}
}
