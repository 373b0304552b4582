package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestRoomCreateCommand(t *testing.T) {
	for name, dbURL := range databases(t) {
		t.Run(name, func(t *testing.T) {
			c := newCLI(t, dbURL())
			org := c.runJSON("", "org", "create", "--name", "Acme Title Co", "--json")["id"].(string)
			sender := c.runJSON("", "user", "create", "--org", org, "--email", "sam@acme.example", "--first-name", "Sam", "--last-name", "Sender", "--json")["id"].(string)
			dir := t.TempDir()
			contract := filepath.Join(dir, "Sales contract.pdf")
			notes := filepath.Join(dir, "notes.pdf")
			if err := os.WriteFile(contract, samplePDF(t), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(notes, []byte("plain text, no PDF"), 0o600); err != nil {
				t.Fatal(err)
			}

			room := c.runJSON("", "room", "create", "--org", org, "--sender", sender, "--document", contract, "--document", contract,
				"--participant", "Pat Q. Buyer <pat@example.com>", "--participant", "Robin Seller <robin@example.com>", "--json")
			url, _ := room["url"].(string)
			expires, err := time.Parse(time.RFC3339, room["expiresAt"].(string))
			if len(room) != 4 || room["id"] == "" || room["transactionId"] == "" || !strings.HasPrefix(url, "http://localhost:8080/markup-room/mrr") || err != nil || !expires.After(time.Now()) {
				t.Fatalf("room create --json printed %v", room)
			}
			// --locale: the room's language, stored canonical like operation B's.
			spoken := c.runJSON("", "room", "create", "--org", org, "--sender", sender, "--locale", "ES", "--json")
			db := c.auditDB(t).DB
			for id, want := range map[any]string{room["id"]: "", spoken["id"]: "es"} {
				var got []string
				if err := db.Table("markup_rooms").Where("id = ?", id).Pluck("COALESCE(locale, '')", &got).Error; err != nil || len(got) != 1 || got[0] != want {
					t.Fatalf("room %v's locale: %v %v, want %q", id, got, err, want)
				}
			}
			code, out, errOut := c.run("", "room", "create", "--org", org, "--sender", sender)
			if code != 0 || !strings.HasPrefix(out, "Created Markup Room ") || !strings.Contains(out, "shown only once:\nhttp://localhost:8080/markup-room/mrr") {
				t.Fatalf("room create: %d %q %q", code, out, errOut)
			}

			// --embed-origin (issue 40, item 3): an origin the organization
			// allows makes an embedded room; another is refused with the API's
			// rule, and nothing is made.
			c.run("", "org", "update", org, "--embed-origins", "https://app.acme.example")
			embedded := c.runJSON("", "room", "create", "--org", org, "--sender", sender, "--embed-origin", "https://APP.acme.example:443", "--json")
			if embedded["embedOrigin"] != "https://app.acme.example" {
				t.Fatalf("room create --embed-origin printed %v", embedded)
			}
			var origin []string
			if err := db.Table("markup_rooms").Where("id = ?", embedded["id"]).Pluck("embed_origin", &origin).Error; err != nil || len(origin) != 1 || origin[0] != "https://app.acme.example" {
				t.Fatalf("room %v's embed origin: %v %v", embedded["id"], origin, err)
			}
			if code, out, _ := c.run("", "room", "create", "--org", org, "--sender", sender, "--embed-origin", "https://app.acme.example"); code != 0 ||
				!strings.Contains(out, "https://app.acme.example may frame it") {
				t.Fatalf("room create --embed-origin: %d %q", code, out)
			}
			var rooms int64
			db.Table("markup_rooms").Count(&rooms)
			for _, refused := range []struct{ origin, says string }{
				{"https://evil.example", "embed/origin: The organization does not allow rooms to be embedded by https://evil.example"},
				{"http://app.acme.example", "embed/origin:"},
			} {
				code, out, errOut := c.run("", "room", "create", "--org", org, "--sender", sender, "--embed-origin", refused.origin)
				if code != 1 || out != "" || !strings.Contains(errOut, refused.says) {
					t.Errorf("--embed-origin %s: exit %d, stdout %q, stderr %q", refused.origin, code, out, errOut)
				}
			}
			var after int64
			db.Table("markup_rooms").Count(&after)
			if after != rooms {
				t.Errorf("refused embedded rooms left %d rooms behind", after-rooms)
			}

			// Bad arguments: exit 2 with what to fix.
			for _, bad := range []struct {
				args []string
				says string
			}{
				{[]string{"--sender", sender}, "--org must be a positive numeric id"},
				{[]string{"--org", org}, "--sender must be a positive numeric id"},
				{[]string{"--org", org, "--sender", sender, "--participant", "pat@example.com"}, `must read "First Last <email>"`},
				{[]string{"--org", org, "--sender", sender, "--participant", "Pat <pat@example.com>"}, "needs a first and a last name"},
				{[]string{"--org", org, "--sender", sender, "--document", filepath.Join(dir, "missing.pdf")}, "is not a readable file"},
				{[]string{"--org", org, "--sender", sender, "extra"}, `unexpected argument "extra"`},
				{[]string{"--org", org, "--sender", sender, "--locale", "pt"}, `--locale "pt" is not a language of Markup Room; use one of: en, es, fr, de, ar`},
			} {
				code, out, errOut := c.run("", append([]string{"room", "create"}, bad.args...)...)
				if code != 2 || out != "" || !strings.Contains(errOut, bad.says) {
					t.Errorf("%v: exit %d, stdout %q, stderr %q", bad.args, code, out, errOut)
				}
			}
			// A refused room: exit 1 with the problems.
			for _, refused := range []struct {
				args []string
				says string
			}{
				{[]string{"--org", org, "--sender", "999999"}, "--sender 999999 is not an active user of organization"},
				{[]string{"--org", org, "--sender", sender, "--document", notes}, "document 1 (" + notes + "):"},
				{[]string{"--org", org, "--sender", sender, "--participant", "Pat Buyer <pat@example.com>", "--participant", "Pat Again <PAT@example.com>"}, "participants/1/email:"},
				{[]string{"--org", org, "--sender", sender, "--template", "01900000-0000-7000-8000-000000000000"}, "templateId:"},
			} {
				code, out, errOut := c.run("", append([]string{"room", "create"}, refused.args...)...)
				if code != 1 || out != "" || !strings.Contains(errOut, refused.says) {
					t.Errorf("%v: exit %d, stdout %q, stderr %q", refused.args, code, out, errOut)
				}
			}
			if code, out, _ := c.run("", "help"); code != 0 || !strings.Contains(out, "markuproom room create") {
				t.Fatal("the usage text does not name room create")
			}
		})
	}
}
