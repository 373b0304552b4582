package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/markuproom/markuproom/models/modelstest"
)

// cli runs commands against one data dir (and PostgreSQL schema when asked).
type cli struct {
	t   *testing.T
	env map[string]string
}

func newCLI(t *testing.T, databaseURL string) *cli {
	dir := t.TempDir()
	env := map[string]string{"MARKUPROOM_DATA_DIR": dir, "MARKUPROOM_DEMO": "false"}
	if databaseURL != "" {
		env["DATABASE_URL"] = databaseURL
	}
	return &cli{t: t, env: env}
}

func (c *cli) run(stdin string, args ...string) (code int, stdout, stderr string) {
	c.t.Helper()
	var out, errOut bytes.Buffer
	code = run(context.Background(), args, func(k string) string { return c.env[k] }, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

// runJSON runs a --json command that must succeed and print exactly one JSON object.
func (c *cli) runJSON(stdin string, args ...string) map[string]any {
	c.t.Helper()
	code, out, errOut := c.run(stdin, args...)
	if code != 0 {
		c.t.Fatalf("%v: exit %d: %s", args, code, errOut)
	}
	var v map[string]any
	dec := json.NewDecoder(strings.NewReader(out))
	if err := dec.Decode(&v); err != nil || dec.More() {
		c.t.Fatalf("%v: stdout is not one JSON object: %q", args, out)
	}
	return v
}

// databases are the DATABASE_URLs the operator commands are tested on.
func databases(t *testing.T) map[string]func() string {
	out := map[string]func() string{"sqlite": func() string { return "" }}
	if os.Getenv(modelstest.PostgresURLEnv) != "" {
		out["postgres"] = func() string { return modelstest.PostgresSchemaURL(t) }
	}
	return out
}

func TestOperatorCommands(t *testing.T) {
	for name, dbURL := range databases(t) {
		t.Run(name, func(t *testing.T) {
			c := newCLI(t, dbURL())
			if code, out, errOut := c.run("", "migrate"); code != 0 || !strings.Contains(out, "Applied migrations") {
				t.Fatalf("migrate: %d %q %q", code, out, errOut)
			}
			if got := c.runJSON("", "migrate", "--json"); len(got["applied"].([]any)) != 0 {
				t.Fatalf("second migrate applied %v", got["applied"])
			}
			org := c.runJSON("", "org", "create", "--name", "Acme Title Co", "--json")
			orgID, ok := org["id"].(string)
			if !ok || org["name"] != "Acme Title Co" || org["apiEnabled"] != true {
				t.Fatalf("org create: %v", org)
			}
			off := c.runJSON("", "org", "create", "--name", "Closed", "--api-enabled=false", "--json")
			if off["apiEnabled"] != false {
				t.Fatalf("--api-enabled=false ignored: %v", off)
			}
			user := c.runJSON("", "user", "create", "--org", orgID, "--email", "sam@acme.example", "--first-name", "Sam", "--last-name", "Sender", "--json")
			if user["id"] == "" || user["email"] != "sam@acme.example" {
				t.Fatalf("user create: %v", user)
			}
			admin := c.runJSON("correct horse battery\n", "user", "create", "--org", orgID, "--email", "ada@acme.example",
				"--first-name", "Ada", "--last-name", "Admin", "--admin", "--password-stdin", "--json")
			if admin["admin"] != true {
				t.Fatalf("admin: %v", admin)
			}
			if code, _, errOut := c.run("", "user", "create", "--org", orgID, "--email", "SAM@acme.example", "--first-name", "S", "--last-name", "S"); code != 1 || !strings.Contains(errOut, "already exists") {
				t.Fatalf("duplicate user: %d %q", code, errOut)
			}
			tok := c.runJSON("", "token", "create", "--org", orgID, "--name", "CI", "--json")
			if !strings.HasPrefix(tok["token"].(string), "mrt_") || tok["id"] == "" {
				t.Fatalf("token create: %v", tok)
			}
			if got := c.runJSON("", "token", "revoke", tok["id"].(string), "--json"); got["revoked"] != true {
				t.Fatalf("token revoke: %v", got)
			}
			if code, out, _ := c.run("", "token", "revoke", tok["id"].(string)); code != 0 || !strings.Contains(out, "Revoked") {
				t.Fatalf("revoking twice: %d %q", code, out)
			}
			if code, _, errOut := c.run("", "token", "revoke", "99999"); code != 1 || !strings.Contains(errOut, "no token") {
				t.Fatalf("unknown token: %d %q", code, errOut)
			}
			for _, bad := range [][]string{
				{"org", "create"}, {"user", "create", "--org", "x"}, {"token", "create"}, {"token", "revoke"},
				{"bogus"}, {"org", "delete"},
			} {
				if code, _, _ := c.run("", bad...); code != 2 {
					t.Errorf("%v: exit %d, want 2", bad, code)
				}
			}
		})
	}
}

func TestAutoMigrateFalseNamesTheMigrateCommand(t *testing.T) {
	if os.Getenv(modelstest.PostgresURLEnv) == "" {
		t.Skip("needs PostgreSQL: SQLite always migrates at start-up")
	}
	c := newCLI(t, modelstest.PostgresSchemaURL(t))
	c.env["MARKUPROOM_AUTO_MIGRATE"] = "false"
	code, _, errOut := c.run("", "org", "create", "--name", "X", "--json")
	if code == 0 || !strings.Contains(errOut, "markuproom migrate") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	delete(c.env, "MARKUPROOM_AUTO_MIGRATE")
	if code, _, errOut := c.run("", "migrate"); code != 0 {
		t.Fatalf("migrate: %s", errOut)
	}
	c.env["MARKUPROOM_AUTO_MIGRATE"] = "false"
	c.runJSON("", "org", "create", "--name", "X", "--json")
}

func TestBadConfigurationExitsWithUsage(t *testing.T) {
	c := newCLI(t, "")
	c.env["MARKUPROOM_ROOM_TTL"] = "soon"
	c.env["MARKUPROOM_BASE_URL"] = "localhost"
	c.env["MARKUPROOM_SMTP_URL"] = "http://user:hunter2@mail.example.com"
	c.env["MARKUPROOM_OUTBOX_MAX_ATTEMPTS"] = "0"
	c.env["MARKUPROOM_RATE_LIMITS"] = "sometimes"
	c.env["MARKUPROOM_RATE_API_BURST"] = "0"
	code, _, errOut := c.run("", "org", "create", "--name", "X")
	for _, want := range []string{"MARKUPROOM_ROOM_TTL", "MARKUPROOM_BASE_URL", "MARKUPROOM_SMTP_URL", "MARKUPROOM_OUTBOX_MAX_ATTEMPTS",
		"MARKUPROOM_RATE_LIMITS", "MARKUPROOM_RATE_API_BURST"} {
		if code != 2 || !strings.Contains(errOut, want) {
			t.Errorf("exit %d, stderr %q lacks %s", code, errOut, want)
		}
	}
	if strings.Contains(errOut, "hunter2") {
		t.Errorf("the SMTP password was printed: %q", errOut)
	}
}

// TestServeDemoAndGracefulShutdown starts the real server twice on one data
// dir: the first start prints the demo block, the second creates nothing.
func TestServeDemoAndGracefulShutdown(t *testing.T) {
	dir := t.TempDir()
	start := func() (string, string, func() int) {
		return serveForTest(t, map[string]string{"MARKUPROOM_DATA_DIR": dir})
	}

	base, out, stop := start()
	for _, want := range []string{"Markup Room demo data", "API token", "mrt_", "Markup Room    " + base + "/markup-room/mrr_", "3 pages", "Admin console  " + base + "/admin", "Second PDF"} {
		if !strings.Contains(out, want) {
			t.Errorf("demo block lacks %q:\n%s", want, out)
		}
	}
	token := fieldAfter(out, "API token")
	password := regexp.MustCompile(`password (\S+)`).FindStringSubmatch(out)[1]
	req, _ := http.NewRequest(http.MethodPost, base+"/api/v1/documents/upload", bytes.NewReader(samplePDF(t)))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/pdf")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct{ Pages int }
	_ = json.NewDecoder(res.Body).Decode(&doc)
	res.Body.Close()
	if res.StatusCode != http.StatusCreated || doc.Pages != 3 {
		t.Fatalf("upload with the demo token: %d, %d pages", res.StatusCode, doc.Pages)
	}
	roomURL := regexp.MustCompile(`http://\S+/markup-room/\S+`).FindString(out)
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err = noRedirect.Get(roomURL)
	if err != nil || res.StatusCode != http.StatusSeeOther {
		t.Fatalf("demo room URL: %v %v", err, res)
	}
	if code := stop(); code != 0 {
		t.Fatalf("shutdown exit code %d", code)
	}

	base, out, stop = start()
	if strings.Contains(out, "Markup Room demo data") || strings.Contains(out, token) || strings.Contains(out, password) {
		t.Fatalf("second start printed the demo block or its secrets again:\n%s", out)
	}
	// It says how to get a new room URL in the demo organization instead.
	for _, want := range []string{"The demo organization from the first start is here", "markuproom room create --org ", " --sender ", base + "/admin/rooms/new"} {
		if !strings.Contains(out, want) {
			t.Errorf("the second start does not say %q:\n%s", want, out)
		}
	}
	if !strings.Contains(out, "; admin console "+base+"/admin).") {
		t.Errorf("the start-up line does not name the console:\n%s", out)
	}
	stop()
	if _, err := os.Stat(filepath.Join(dir, "session.key")); err != nil {
		t.Fatalf("session key not persisted: %v", err)
	}
}

// serveForTest runs the server with env (plus a free loopback address) until
// the returned stop; it answers the base URL and what was printed.
func serveForTest(t *testing.T, env map[string]string) (string, string, func() int) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	env["MARKUPROOM_ADDR"], env["MARKUPROOM_BASE_URL"] = addr, "http://"+addr
	if env["MARKUPROOM_LOG_LEVEL"] == "" {
		env["MARKUPROOM_LOG_LEVEL"] = "error"
	}
	ctx, cancel := context.WithCancel(context.Background())
	var out, errOut modelstest.LogBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, nil, func(k string) string { return env[k] }, strings.NewReader(""), &out, &errOut)
	}()
	base := "http://" + addr
	deadline := time.Now().Add(60 * time.Second)
	for {
		res, err := http.Get(base + "/readyz")
		if err == nil && res.StatusCode == http.StatusOK {
			res.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("server did not become ready: %s", errOut.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	return base, out.String(), func() int { cancel(); return <-done }
}

func fieldAfter(out, label string) string {
	for _, line := range strings.Split(out, "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), strings.TrimSpace(label)); ok {
			if f := strings.Fields(rest); len(f) > 0 {
				return f[0]
			}
		}
	}
	panic(fmt.Sprintf("no %q line in %s", label, out))
}
