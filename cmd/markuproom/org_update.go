package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/markuproom/markuproom/models"
)

// orgUpdate changes an organization's settings: today the origins allowed
// to frame its rooms (--embed-origins, comma-separated; "" allows none),
// audited as organization.embed_origins_changed by the operator.
func (e *cliEnv) orgUpdate(ctx context.Context, args []string) int {
	fs := e.newFlagSet("org update")
	origins := fs.String("embed-origins", "", `origins that may embed the organization's rooms, comma-separated: https://host[:port] (http:// only for loopback); "" allows none`)
	asJSON := fs.Bool("json", false, "print the result as JSON")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 1 {
		fmt.Fprintln(e.stderr, "markuproom org update: give exactly one ORG_ID")
		return 2
	}
	id, err := parseID("ORG_ID", pos[0])
	if err != nil {
		fmt.Fprintf(e.stderr, "markuproom org update: %v\n", err)
		return 2
	}
	if !flagGiven(fs, "embed-origins") {
		fmt.Fprintln(e.stderr, "markuproom org update: nothing to change; give --embed-origins")
		return 2
	}
	a, err := e.openApp(ctx, e.quietLogger())
	if err != nil {
		return e.fail("org update", err)
	}
	defer a.close()
	ctx = models.WithAuditActor(ctx, models.AuditActor{Kind: models.AuditActorOperator, ID: e.getenv("USER"), Name: "markuproom org update", Via: "cli"})
	stored, err := a.store.SetOrganizationEmbedOrigins(ctx, id, models.SplitEmbedOrigins(*origins))
	if errors.Is(err, models.ErrNotFound) {
		err = fmt.Errorf("no organization has id %d", id)
	}
	if err != nil {
		return e.fail("org update", err)
	}
	if *asJSON {
		e.printJSON(map[string]any{"id": formatID(id), "embedOrigins": append([]string{}, stored...)})
	} else if len(stored) == 0 {
		fmt.Fprintf(e.stdout, "Organization %d: no origin may embed its rooms.\n", id)
	} else {
		fmt.Fprintf(e.stdout, "Organization %d: rooms may be embedded by %s.\n", id, strings.Join(stored, ", "))
	}
	return 0
}

// flagGiven tells whether the command line set the flag name.
func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}
