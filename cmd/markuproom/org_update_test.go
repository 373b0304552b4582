package main

import (
	"strings"
	"testing"
)

// org update --embed-origins stores the list normalised, refuses a bad
// origin naming it (exit 1, nothing changed), clears with "", and needs an
// ORG_ID and the flag (exit 2).
func TestOrgUpdateEmbedOrigins(t *testing.T) {
	for name, dbURL := range databases(t) {
		t.Run(name, func(t *testing.T) {
			c := newCLI(t, dbURL())
			org := c.runJSON("", "org", "create", "--name", "Acme", "--json")
			id := org["id"].(string)
			got := c.runJSON("", "org", "update", id, "--embed-origins", "https://App.example:443,http://localhost:5173", "--json")
			list, _ := got["embedOrigins"].([]any)
			if got["id"] != id || len(list) != 2 || list[0] != "https://app.example" || list[1] != "http://localhost:5173" {
				t.Fatalf("org update: %v", got)
			}
			code, _, errOut := c.run("", "org", "update", id, "--embed-origins", "https://ok.example,http://evil.example")
			if code != 1 || !strings.Contains(errOut, "http://evil.example") || !strings.Contains(errOut, "embedOrigins/1") {
				t.Fatalf("bad origin: exit %d, %q", code, errOut)
			}
			code, out, _ := c.run("", "org", "update", id, "--embed-origins", "")
			if code != 0 || !strings.Contains(out, "no origin may embed") {
				t.Fatalf("clearing: exit %d, %q", code, out)
			}
			if code, _, errOut := c.run("", "org", "update", "999", "--embed-origins", "https://a.example"); code != 1 || !strings.Contains(errOut, "no organization has id 999") {
				t.Fatalf("unknown organization: exit %d, %q", code, errOut)
			}
			for _, bad := range [][]string{{"org", "update"}, {"org", "update", id}, {"org", "update", "x", "--embed-origins", ""}} {
				if code, _, _ := c.run("", bad...); code != 2 {
					t.Errorf("%v: exit %d, want 2", bad, code)
				}
			}
		})
	}
}
