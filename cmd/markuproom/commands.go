package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/passwordhash"
)

// parseFlags parses flags that may come before or after positional arguments.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return positional, nil
		}
		positional = append(positional, args[0])
		args = args[1:]
	}
}

func (e *cliEnv) newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet("markuproom "+name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	return fs
}

// quietLogger keeps operator commands' stdout clean: logs go to stderr, warnings only.
func (e *cliEnv) quietLogger() *slog.Logger {
	return slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// printJSON writes one JSON object on one line.
func (e *cliEnv) printJSON(v any) {
	b, _ := json.Marshal(v)
	fmt.Fprintln(e.stdout, string(b))
}

func (e *cliEnv) migrate(ctx context.Context, args []string) int {
	fs := e.newFlagSet("migrate")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	if _, err := parseFlags(fs, args); err != nil {
		return 2
	}
	cfg, err := loadConfig(e.getenv)
	if err != nil {
		return e.fail("migrate", &usageError{err})
	}
	db, err := models.OpenDatabase(ctx, models.DatabaseOptions{URL: cfg.DatabaseURL, DataDir: cfg.DataDir})
	if err != nil {
		return e.fail("migrate", err)
	}
	defer db.Close()
	applied, err := db.Migrate(ctx)
	if err != nil {
		return e.fail("migrate", err)
	}
	if applied == nil {
		applied = []int64{}
	}
	if *asJSON {
		e.printJSON(map[string]any{"applied": applied, "dialect": db.Dialect})
	} else if len(applied) == 0 {
		fmt.Fprintln(e.stdout, "The database schema is up to date.")
	} else {
		fmt.Fprintf(e.stdout, "Applied migrations %v.\n", applied)
	}
	return 0
}

func (e *cliEnv) orgCreate(ctx context.Context, args []string) int {
	fs := e.newFlagSet("org create")
	name := fs.String("name", "", "organization name (required)")
	apiEnabled := fs.Bool("api-enabled", true, "allow API access for the organization's tokens")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	if _, err := parseFlags(fs, args); err != nil {
		return 2
	}
	if strings.TrimSpace(*name) == "" {
		fmt.Fprintln(e.stderr, "markuproom org create: --name is required")
		return 2
	}
	a, err := e.openApp(ctx, e.quietLogger())
	if err != nil {
		return e.fail("org create", err)
	}
	defer a.close()
	org, err := a.store.CreateOrganization(ctx, *name, *apiEnabled)
	if err != nil {
		return e.fail("org create", err)
	}
	if *asJSON {
		e.printJSON(map[string]any{"id": formatID(org.ID), "name": org.Name, "apiEnabled": org.APIEnabled})
	} else {
		fmt.Fprintf(e.stdout, "Created organization %q with id %d (API access %s).\n", org.Name, org.ID, onOff(org.APIEnabled))
	}
	return 0
}

func (e *cliEnv) userCreate(ctx context.Context, args []string) int {
	fs := e.newFlagSet("user create")
	orgID := fs.String("org", "", "organization id (required)")
	email := fs.String("email", "", "e-mail address (required)")
	first := fs.String("first-name", "", "first name (required)")
	last := fs.String("last-name", "", "last name (required)")
	admin := fs.Bool("admin", false, "the user may log in to the admin console")
	pwStdin := fs.Bool("password-stdin", false, "read the user's password from the first line of standard input")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	if _, err := parseFlags(fs, args); err != nil {
		return 2
	}
	org, err := parseID("--org", *orgID)
	if err != nil {
		fmt.Fprintf(e.stderr, "markuproom user create: %v\n", err)
		return 2
	}
	var password string
	if *pwStdin {
		if password, err = readPasswordLine(e.stdin); err != nil {
			fmt.Fprintf(e.stderr, "markuproom user create: %v\n", err)
			return 2
		}
	}
	a, err := e.openApp(ctx, e.quietLogger())
	if err != nil {
		return e.fail("user create", err)
	}
	defer a.close()
	u, err := a.store.CreateUser(ctx, models.NewUser{OrganizationID: org, Email: *email, FirstName: *first, LastName: *last, Admin: *admin, Password: password})
	if err != nil {
		return e.fail("user create", err)
	}
	if *asJSON {
		e.printJSON(map[string]any{"id": formatID(u.ID), "email": u.Email, "organizationId": formatID(u.OrganizationID),
			"firstName": u.FirstName, "lastName": u.LastName, "admin": u.IsAdmin})
	} else {
		fmt.Fprintf(e.stdout, "Created user %s <%s> with id %d in organization %d.\n", u.FullName(), u.Email, u.ID, u.OrganizationID)
	}
	return 0
}

func (e *cliEnv) tokenCreate(ctx context.Context, args []string) int {
	fs := e.newFlagSet("token create")
	orgID := fs.String("org", "", "organization id (required)")
	name := fs.String("name", "", "a label for the token")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	if _, err := parseFlags(fs, args); err != nil {
		return 2
	}
	org, err := parseID("--org", *orgID)
	if err != nil {
		fmt.Fprintf(e.stderr, "markuproom token create: %v\n", err)
		return 2
	}
	a, err := e.openApp(ctx, e.quietLogger())
	if err != nil {
		return e.fail("token create", err)
	}
	defer a.close()
	t, plaintext, err := a.store.CreateAPIToken(ctx, org, *name)
	if err != nil {
		return e.fail("token create", err)
	}
	if *asJSON {
		e.printJSON(map[string]any{"id": formatID(t.ID), "token": plaintext, "organizationId": formatID(t.OrganizationID), "name": t.Name})
	} else {
		fmt.Fprintf(e.stdout, "Created token %d for organization %d. It is shown only once:\n%s\n", t.ID, t.OrganizationID, plaintext)
	}
	return 0
}

func (e *cliEnv) tokenRevoke(ctx context.Context, args []string) int {
	fs := e.newFlagSet("token revoke")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 1 {
		fmt.Fprintln(e.stderr, "markuproom token revoke: give exactly one TOKEN_ID")
		return 2
	}
	id, err := parseID("TOKEN_ID", pos[0])
	if err != nil {
		fmt.Fprintf(e.stderr, "markuproom token revoke: %v\n", err)
		return 2
	}
	a, err := e.openApp(ctx, e.quietLogger())
	if err != nil {
		return e.fail("token revoke", err)
	}
	defer a.close()
	if err := a.store.RevokeAPIToken(ctx, id); err != nil {
		if errors.Is(err, models.ErrNotFound) {
			err = fmt.Errorf("no token has id %d", id)
		}
		return e.fail("token revoke", err)
	}
	if *asJSON {
		e.printJSON(map[string]any{"id": formatID(id), "revoked": true})
	} else {
		fmt.Fprintf(e.stdout, "Revoked token %d.\n", id)
	}
	return 0
}

func parseID(name, s string) (int64, error) {
	id, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || id <= 0 {
		return 0, fmt.Errorf("%s must be a positive numeric id (got %q)", name, s)
	}
	return id, nil
}

// formatID renders a numeric id the way the API does: as a JSON string.
func formatID(id int64) string { return strconv.FormatInt(id, 10) }

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// readPasswordLine reads one line (without its line ending) from r.
func readPasswordLine(r io.Reader) (string, error) {
	line, err := bufio.NewReader(io.LimitReader(r, passwordhash.MaxPasswordLength+2)).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("read password: %w", err)
	}
	line = strings.TrimRight(line, "\r\n")
	if line == "" {
		return "", errors.New("--password-stdin: standard input holds no password")
	}
	return line, nil
}
