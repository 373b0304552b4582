package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/emersion/go-smtp"

	"github.com/markuproom/markuproom/handlers/delivery/mailcatch"
)

// soakRig is what the soak's server runs in: a schema of its own, a temp
// directory with the server binary (unless given), and the receivers of the
// outbox's messages (a webhook sink and an SMTP catcher).
type soakRig struct {
	sch               *schemas
	schema, schemaURL string
	dir, bin          string
	sink, mails       *deliveryCounter
	hook              *httptest.Server
	smtpLn            net.Listener
	smtpSrv           *smtp.Server
}

// setup creates the database when missing and the schema, builds the
// server binary unless o.bin names one, and starts the receivers. What it
// made before a failure is for close to undo.
func (r *soakRig) setup(ctx context.Context, o soakOptions, logf func(string, ...any)) error {
	dbURL, source := benchDatabaseURL()
	if created, err := ensureDatabase(ctx, dbURL); err != nil {
		return err
	} else if created {
		logf("created database %s", redact(dbURL))
	}
	var err error
	if r.sch, err = openSchemas(ctx, dbURL); err != nil {
		return err
	}
	if r.schema, r.schemaURL, err = r.sch.create(ctx, "soak"); err != nil {
		return err
	}
	logf("schema %s in %s (from %s)", r.schema, redact(dbURL), source)

	if r.dir, err = os.MkdirTemp("", "markuproom-soak-"); err != nil {
		return err
	}
	r.bin = o.bin
	if r.bin == "" {
		r.bin = filepath.Join(r.dir, "markuproom")
		logf("building the server binary")
		out, err := exec.CommandContext(ctx, "go", "build", "-o", r.bin, "github.com/markuproom/markuproom/cmd/markuproom").CombinedOutput()
		if err != nil {
			return fmt.Errorf("go build: %w\n%s", err, out)
		}
	}
	return r.startReceivers()
}

// startReceivers starts where the outbox's messages go: a webhook sink and
// an SMTP catcher, each counting what it receives.
func (r *soakRig) startReceivers() error {
	r.sink = newDeliveryCounter()
	r.hook = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		_, _ = io.Copy(io.Discard, req.Body)
		r.sink.add(req.Header.Get("webhook-id"))
		w.WriteHeader(http.StatusNoContent)
	}))
	r.mails = newDeliveryCounter()
	var err error
	if r.smtpLn, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
		return err
	}
	r.smtpSrv = mailcatch.NewServer(&mailcatch.Catcher{OnMessage: func(m mailcatch.Message) { r.mails.add(messageID(m.Data)) }})
	go func() { _ = r.smtpSrv.Serve(r.smtpLn) }()
	return nil
}

// close undoes setup in reverse, as far as it went, and drops the schema.
func (r *soakRig) close(logf func(string, ...any)) error {
	if r.smtpSrv != nil {
		r.smtpSrv.Close()
	}
	if r.hook != nil {
		r.hook.Close()
	}
	if r.dir != "" {
		os.RemoveAll(r.dir)
	}
	if r.sch == nil {
		return nil
	}
	names := strings.Join(r.sch.created, ", ")
	if err := r.sch.dropAll(); err != nil {
		return err
	}
	if names != "" {
		logf("dropped schema %s", names)
	}
	return nil
}

// serverEnv is the server's environment: the schema, a data directory, addr,
// the receivers, no rate limits, then o's extra variables.
func (r *soakRig) serverEnv(o soakOptions, addr string) []string {
	env := []string{
		"DATABASE_URL=" + r.schemaURL, "MARKUPROOM_DATA_DIR=" + filepath.Join(r.dir, "data"),
		"MARKUPROOM_ADDR=" + addr, "MARKUPROOM_BASE_URL=http://" + addr,
		"MARKUPROOM_DEMO=false", "MARKUPROOM_LOG_LEVEL=error", "MARKUPROOM_RATE_LIMITS=off",
		"MARKUPROOM_WEBHOOK_ALLOW_PRIVATE=true", "MARKUPROOM_SMTP_URL=smtp://" + r.smtpLn.Addr().String(),
	}
	return append(env, o.env...)
}

// createTenant runs the operator's commands: an organization, an admin
// user (the sender of the rooms) and an API token, into e. The first one
// applies the migrations.
func createTenant(ctx context.Context, bin string, env []string, e *soakEnv) error {
	var org, user, tok struct {
		ID    string `json:"id"`
		Token string `json:"token"`
	}
	if err := operator(ctx, bin, env, "", &org, "org", "create", "--name", "Soak", "--json"); err != nil {
		return err
	}
	if err := operator(ctx, bin, env, e.adminPassword+"\n", &user, "user", "create", "--org", org.ID, "--email", e.adminEmail,
		"--first-name", "Ada", "--last-name", "Admin", "--admin", "--password-stdin", "--json"); err != nil {
		return err
	}
	if err := operator(ctx, bin, env, "", &tok, "token", "create", "--org", org.ID, "--name", "soak", "--json"); err != nil {
		return err
	}
	e.token = tok.Token
	var err error
	if e.senderID, err = strconv.ParseInt(user.ID, 10, 64); err != nil {
		return fmt.Errorf("user create: id %q: %w", user.ID, err)
	}
	return nil
}

// measure runs the load after its setup and lets the outbox drain, counting
// the rows at the start, in the middle and at the end. It returns the
// report's figures (without the checks) and whether the outbox drained.
func (l *soakLoad) measure(ctx context.Context, e *soakEnv, o soakOptions, logf func(string, ...any)) (in reportInput, drained bool, err error) {
	if err := l.setup(ctx); err != nil {
		return in, false, fmt.Errorf("setup: %w", err)
	}
	in.counts = []rowCounts{}
	c, err := countRows(ctx, e.admin, e.schema)
	if err != nil {
		return in, false, err
	}
	in.counts = append(in.counts, rowCounts{when: "start", n: c})

	logf("mixed load: %.1f req/s for %s", o.rate, o.duration)
	in.elapsed, err = l.run(ctx, func() {
		c, err := countRows(ctx, e.admin, e.schema)
		if err != nil {
			logf("middle row counts: %v", err)
			return
		}
		in.counts = append(in.counts, rowCounts{when: "middle", n: c})
	})
	if err != nil {
		return in, false, err
	}
	logf("load done in %s; letting the outbox drain (at most %s)", in.elapsed.Round(time.Millisecond), o.drain)
	if drained, err = waitOutbox(ctx, e.admin, e.schema, o.drain); err != nil {
		return in, false, err
	}
	in.peakRSS, in.endRSS = e.srv.memory()
	if c, err = countRows(ctx, e.admin, e.schema); err != nil {
		return in, false, err
	}
	in.counts = append(in.counts, rowCounts{when: "end", n: c})
	if in.bytes, err = tableBytes(ctx, e.admin, e.schema); err != nil {
		return in, false, err
	}
	return in, drained, nil
}
