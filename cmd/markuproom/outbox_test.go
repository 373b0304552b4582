package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/markuproom/markuproom/handlers/delivery/deliverytest"
)

// invitationsGoingOut is what a completed room says of invitations the
// outbox holds or has just sent: queued until the worker delivers them.
var invitationsGoingOut = regexp.MustCompile(`data-summary-invitations>Invitations (queued|sent)<`)

// TestDemoRoomInvitationsReachTheMailCatcher is the README's walk-through: a
// newcomer points MARKUPROOM_SMTP_URL at a local mail catcher, finishes the
// demo room, and each participant's invitation arrives.
func TestDemoRoomInvitationsReachTheMailCatcher(t *testing.T) {
	smtpd := deliverytest.StartSMTP(t)
	base, out, stop := serveForTest(t, map[string]string{
		"MARKUPROOM_DATA_DIR": t.TempDir(), "MARKUPROOM_SMTP_URL": smtpd.URL(), "MARKUPROOM_SMTP_FROM": "Closings <closings@example.com>",
	})
	defer stop()
	token := fieldAfter(out, "API token")
	call := func(method, path string, body io.Reader, into any) {
		t.Helper()
		req, _ := http.NewRequest(method, base+path, body)
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		if res.StatusCode >= 300 {
			b, _ := io.ReadAll(res.Body)
			t.Fatalf("%s %s: %d %s", method, path, res.StatusCode, b)
		}
		if into != nil {
			_ = json.NewDecoder(res.Body).Decode(into)
		}
	}

	// The demo room's transaction gets a signature tag per participant (as staff would place them).
	var rooms struct {
		Items []struct{ ID, TransactionID string }
	}
	call(http.MethodGet, "/api/v1/markup-rooms", nil, &rooms)
	if len(rooms.Items) != 1 {
		t.Fatalf("rooms: %+v", rooms)
	}
	var tx map[string]any
	call(http.MethodGet, "/api/v1/transactions/"+rooms.Items[0].TransactionID, nil, &tx)
	doc := tx["documents"].([]any)[0].(map[string]any)
	var tags []any
	for i, p := range tx["participants"].([]any) {
		tags = append(tags, map[string]any{"type": "SIGNATURETEMPLATE", "x": 72, "y": 100 + 60*i, "width": 150, "height": 40, "page": 1,
			"signerId": p.(map[string]any)["id"], "customData": map[string]any{}})
	}
	doc["tags"] = tags
	b, _ := json.Marshal(tx)
	call(http.MethodPut, "/api/v1/transactions/"+rooms.Items[0].TransactionID, strings.NewReader(string(b)), nil)

	// Open the room URL in a "browser" and create the e-signature session, invitations ticked.
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar}
	res, err := browser.Get(regexp.MustCompile(`http://\S+/markup-room/\S+`).FindString(out))
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	roomURL := res.Request.URL.String()
	csrf := regexp.MustCompile(`name="csrf-token" content="([^"]+)"`).FindSubmatch(page)
	if csrf == nil || !strings.Contains(roomURL, "/rooms/") {
		t.Fatalf("room page at %s without a CSRF token", roomURL)
	}
	res, err = browser.PostForm(roomURL+"/complete", url.Values{"csrf": {string(csrf[1])}, "notify": {"email"}})
	if err != nil {
		t.Fatal(err)
	}
	summary, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !invitationsGoingOut.Match(summary) {
		t.Fatalf("completing the room: %d\n%s", res.StatusCode, summary)
	}

	got := map[string]string{}
	for _, m := range smtpd.WaitMessages(t, 2, 20*time.Second) {
		got[strings.Join(m.To, ",")] = m.Header(t).Get("Subject")
	}
	if len(got) != 2 || got["pat.buyer@example.com"] == "" || got["robin.seller@example.com"] == "" {
		t.Fatalf("the mail catcher received %v", got)
	}
	time.Sleep(300 * time.Millisecond) // deliberately fixed: it shows that no third message comes
	if n := len(smtpd.Messages()); n != 2 {
		t.Fatalf("%d messages arrived, want 2", n)
	}
}
