package main

import (
	"context"
	"fmt"
)

// auditVerify walks the audit chains (every organization's, or one's with
// --org) and exits 0 when they verify, 1 naming the first event whose
// content or link does not match; it counts the events not sealed yet
// (docs/decisions.md, "Audit sealing").
func (e *cliEnv) auditVerify(ctx context.Context, args []string) int {
	fs := e.newFlagSet("audit verify")
	orgFlag := fs.String("org", "", "verify only this organization's chain (ORG_ID; 0 is the chain of no organization)")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 0 {
		fmt.Fprintf(e.stderr, "markuproom audit verify: unexpected argument %q\n", pos[0])
		return 2
	}
	var org *int64
	if *orgFlag != "" {
		id, err := parseID("ORG_ID", *orgFlag)
		if *orgFlag == "0" {
			id, err = 0, nil
		}
		if err != nil {
			fmt.Fprintf(e.stderr, "markuproom audit verify: %v\n", err)
			return 2
		}
		org = &id
	}
	a, err := e.openApp(ctx, e.quietLogger())
	if err != nil {
		return e.fail("audit verify", err)
	}
	defer a.close()
	rep, err := a.store.VerifyAudit(ctx, org)
	if err != nil {
		return e.fail("audit verify", err)
	}
	if *asJSON {
		out := map[string]any{"events": rep.Events, "chains": rep.Chains, "intact": rep.Broken == nil, "unsealed": rep.Unsealed}
		if rep.Broken != nil {
			out["brokenEvent"], out["organization"], out["reason"] = rep.Broken.EventID, rep.Broken.OrganizationID, rep.Broken.Reason
		}
		e.printJSON(out)
	}
	if rep.Broken != nil {
		fmt.Fprintf(e.stderr, "markuproom audit verify: chain broken at %v\n", rep.Broken)
		return 1
	}
	if !*asJSON {
		fmt.Fprintf(e.stdout, "%d events in %d chains, chains intact.\n", rep.Events, rep.Chains)
		if rep.Unsealed > 0 {
			fmt.Fprintf(e.stdout, "Not sealed yet: %d events (a running server chains them within a second of their commit).\n", rep.Unsealed)
		}
	}
	return 0
}
