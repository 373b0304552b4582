package models_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

func TestNormalizeEmbedOrigin(t *testing.T) {
	t.Parallel()
	good := map[string]string{
		"https://App.Example.COM":        "https://app.example.com",
		"https://app.example.com/":       "https://app.example.com",
		"https://app.example.com:443":    "https://app.example.com",
		"https://app.example.com:8443":   "https://app.example.com:8443",
		"HTTPS://xn--bcher-kva.example":  "https://xn--bcher-kva.example",
		"http://localhost:5173":          "http://localhost:5173",
		"http://127.0.0.1:80":            "http://127.0.0.1",
		"http://[::1]:3000":              "http://[::1]:3000",
		"  https://app.example.com  ":    "https://app.example.com",
		"https://[2001:db8::1]:8443":     "https://[2001:db8::1]:8443",
		"https://192.0.2.10":             "https://192.0.2.10",
		"https://a-b.example.co.uk:9000": "https://a-b.example.co.uk:9000",
	}
	for in, want := range good {
		got, code, detail := models.NormalizeEmbedOrigin(in)
		if got != want || code != "" {
			t.Errorf("NormalizeEmbedOrigin(%q) = %q, %q (%s); want %q", in, got, code, detail, want)
		}
	}
	bad := map[string]string{
		"":                                             "required",
		"http://app.example.com":                       "insecure_origin",
		"http://192.168.1.5":                           "insecure_origin",
		"https://*.example.com":                        "invalid_origin",
		"https://app.example.com/path":                 "invalid_origin",
		"https://app.example.com?x=1":                  "invalid_origin",
		"https://app.example.com#top":                  "invalid_origin",
		"https://user@app.example.com":                 "invalid_origin",
		"https://app.example.com:0":                    "invalid_origin",
		"https://app.example.com:65536":                "invalid_origin",
		"https://app.example.com:https":                "invalid_origin",
		"ftp://app.example.com":                        "invalid_origin",
		"app.example.com":                              "invalid_origin",
		"https://bücher.example":                       "invalid_origin",
		"https://app..example.com":                     "invalid_origin",
		"javascript:alert(1)":                          "invalid_origin",
		"https://" + strings.Repeat("a", 250) + ".com": "too_long",
	}
	for in, want := range bad {
		got, code, detail := models.NormalizeEmbedOrigin(in)
		if code != want || got != "" || detail.IsZero() {
			t.Errorf("NormalizeEmbedOrigin(%q) = %q, %q (%s); want code %q", in, got, code, detail, want)
		}
	}
}

func TestParseEmbedOriginsReportsEachAndDropsDuplicates(t *testing.T) {
	t.Parallel()
	got, err := models.ParseEmbedOrigins([]string{"https://A.example", "https://a.example:443", "http://localhost:8080"})
	if err != nil || strings.Join(got, ",") != "https://a.example,http://localhost:8080" {
		t.Fatalf("ParseEmbedOrigins = %q, %v", got, err)
	}
	_, err = models.ParseEmbedOrigins([]string{"https://ok.example", "http://evil.example", "https://x.example/p"})
	var ve *models.ValidationError
	if !errors.As(err, &ve) || len(ve.Errors) != 2 || ve.Errors[0].Pointer != "#/embedOrigins/1" || ve.Errors[0].Code != "insecure_origin" ||
		ve.Errors[1].Pointer != "#/embedOrigins/2" || !strings.Contains(ve.Errors[0].Message.String(), "http://evil.example") {
		t.Fatalf("errors = %+v", err)
	}
	many := make([]string, models.MaxEmbedOrigins+1)
	for i := range many {
		many[i] = "https://o" + strconv.Itoa(i) + ".example"
	}
	if _, err := models.ParseEmbedOrigins(many); !errors.As(err, &ve) || ve.Errors[0].Code != "too_many" {
		t.Fatalf("%d origins: %v", len(many), err)
	}
	if got := models.SplitEmbedOrigins("https://a.example, https://b.example\nhttps://c.example"); len(got) != 3 {
		t.Fatalf("SplitEmbedOrigins = %q", got)
	}
}

// The list is stored normalised, and each change writes its audit event
// (old and new list) in the change's transaction; a refused list changes
// nothing and writes none.
func TestSetOrganizationEmbedOriginsIsAudited(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		tenant := env.NewTenant(t, "Acme")
		ctx := models.WithAuditActor(context.Background(), models.AuditActor{Kind: models.AuditActorOperator, ID: "ops", Name: "ops", Via: "cli"})
		got, err := env.Store.SetOrganizationEmbedOrigins(ctx, tenant.Org.ID, []string{"https://App.example:443", "http://localhost:5173"})
		if err != nil || strings.Join(got, ",") != "https://app.example,http://localhost:5173" {
			t.Fatalf("set = %q, %v", got, err)
		}
		if _, err := env.Store.SetOrganizationEmbedOrigins(ctx, tenant.Org.ID, []string{"http://app.example"}); err == nil {
			t.Fatal("an http origin was allowed")
		}
		if _, err := env.Store.SetOrganizationEmbedOrigins(ctx, tenant.Org.ID+1000, nil); !errors.Is(err, models.ErrNotFound) {
			t.Fatalf("unknown organization: %v", err)
		}
		if _, err := env.Store.SetOrganizationEmbedOrigins(ctx, tenant.Org.ID, nil); err != nil {
			t.Fatal(err)
		}
		org, err := env.Store.GetOrganization(ctx, tenant.Org.ID)
		if err != nil || len(org.AllowedEmbedOrigins()) != 0 {
			t.Fatalf("after clearing: %q, %v", org.AllowedEmbedOrigins(), err)
		}
		page, err := env.Store.ListAuditEvents(ctx, models.AuditFilter{OrganizationID: &tenant.Org.ID, Action: "organization.embed_origins_changed"}, models.AuditOldestFirst, 0, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Events) != 2 {
			t.Fatalf("%d events, want 2: %+v", len(page.Events), page.Events)
		}
		first, second := page.Events[0], page.Events[1]
		if first.Summary != "Embedding origins (none) → https://app.example, http://localhost:5173" || first.Via != "cli" ||
			first.TargetType != "organization" || first.TargetID != strconv.FormatInt(tenant.Org.ID, 10) {
			t.Errorf("first event: %+v", first)
		}
		if second.Summary != "Embedding origins https://app.example, http://localhost:5173 → (none)" {
			t.Errorf("second event: %+v", second)
		}
	})
}

// Operation B's embed.origin: malformed is a 400-class problem at
// #/embed/origin, an origin the organization has not allowed a 422 there,
// an allowed one (written in any case) is stored normalised.
func TestCreateRoomEmbedOrigin(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		tenant := env.NewTenant(t, "Acme")
		p, err := env.Store.AuthenticateAPIToken(ctx, tenant.Token)
		if err != nil {
			t.Fatal(err)
		}
		body := func(origin string) []byte {
			return []byte(`{"senderId": "` + strconv.FormatInt(tenant.Sender.ID, 10) + `", "embed": {"origin": "` + origin + `"}}`)
		}
		var ve *models.ValidationError
		if _, err := models.ParseRoomInput(body("http://app.example")); !errors.As(err, &ve) || ve.Kind != models.KindInvalid ||
			ve.Errors[0].Pointer != "#/embed/origin" || ve.Errors[0].Code != "insecure_origin" {
			t.Fatalf("http origin: %+v", err)
		}
		if _, err := models.ParseRoomInput([]byte(`{"senderId": "1", "embed": {"origin": "https://a.example", "x": 1}}`)); !errors.As(err, &ve) || ve.Errors[0].Pointer != "#/embed/x" {
			t.Fatalf("unknown field: %+v", err)
		}
		in, err := models.ParseRoomInput(body("https://APP.example:443"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := env.Store.CreateRoom(ctx, p.Actor(), in); !errors.As(err, &ve) || ve.Kind != models.KindUnprocessable ||
			ve.Errors[0].Pointer != "#/embed/origin" || ve.Errors[0].Code != "embed_origin_not_allowed" {
			t.Fatalf("not allowed: %+v", err)
		}
		if _, err := env.Store.SetOrganizationEmbedOrigins(ctx, tenant.Org.ID, []string{"https://app.example"}); err != nil {
			t.Fatal(err)
		}
		created, err := env.Store.CreateRoom(ctx, p.Actor(), in)
		if err != nil {
			t.Fatal(err)
		}
		got, err := env.Store.GetRoom(ctx, tenant.Org.ID, created.Room.ID)
		if err != nil || got.EmbedOrigin != "https://app.example" {
			t.Fatalf("stored origin %q, %v", got.EmbedOrigin, err)
		}
		// Another origin added: the room stays framed; its own taken off: it is not any more.
		if _, err := env.Store.SetOrganizationEmbedOrigins(ctx, tenant.Org.ID, []string{"https://app.example", "https://b.example"}); err != nil {
			t.Fatal(err)
		}
		if got, _ := env.Store.GetRoom(ctx, tenant.Org.ID, created.Room.ID); got.EmbedOrigin != "https://app.example" {
			t.Fatalf("after adding an origin: %q", got.EmbedOrigin)
		}
		if _, err := env.Store.SetOrganizationEmbedOrigins(ctx, tenant.Org.ID, []string{"https://b.example"}); err != nil {
			t.Fatal(err)
		}
		if got, _ := env.Store.GetRoom(ctx, tenant.Org.ID, created.Room.ID); got.EmbedOrigin != "" {
			t.Fatalf("after removing its origin the room is still framed by %q", got.EmbedOrigin)
		}
		page, err := env.Store.ListAuditEvents(ctx, models.AuditFilter{OrganizationID: &tenant.Org.ID, Action: "organization.embed_origins_changed"}, models.AuditNewestFirst, 0, 1)
		if err != nil || !strings.HasSuffix(page.Events[0].Summary, "; 1 room(s) made for a removed origin may no longer be framed") {
			t.Fatalf("last event %+v, %v", page.Events, err)
		}
	})
}
