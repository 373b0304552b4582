package handlers_test

import (
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/handlers"
	"github.com/markuproom/markuproom/models/modelstest"
)

// fuzzLog sends the server's log to the test of the input being run (the
// server outlives each input's *testing.T).
type fuzzLog struct{ t *testing.T }

func (w *fuzzLog) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// FuzzRoomForms posts fuzzed form bodies to the room's tag, participant,
// document and page routes of a freshly opened room (bound session, CSRF
// header, as the editor sends them), on every configured database. No input
// may answer 5xx or panic, and afterwards the room page and the API's view
// of the transaction (checked against the OpenAPI document) still answer.
//
// suffix is the path after /rooms/<id>/ and form the url-encoded body; in
// both, {p0} and {p1} stand for the room's participant ids and {tag} for a
// tag placed before the input runs. method picks POST, PUT or DELETE.
func FuzzRoomForms(f *testing.F) {
	const tag = "documentPosition=0&type=SIGNATURETEMPLATE&signerId={p0}&page=2&x=72&y=100&width=144&height=36&required=true"
	for _, s := range []struct {
		method       uint8
		suffix, form string
	}{
		{0, "tags", tag},
		{1, "tags/{tag}", "documentPosition=0&type=DATETEMPLATE&signerId={p1}&page=1&x=10&y=10&width=96&height=20&dateFormat=MM/DD/YYYY&fontSize=12"},
		{1, "tags/{tag}", "documentPosition=0&type=TEXTTEMPLATE&signerId={p1}&page=3&x=-5&y=1e3&width=1&height=0.5&stateFormat=S&required="},
		{2, "tags/{tag}", ""},
		{0, "tags", "documentPosition=1&type=SIGNATURETEMPLATE&signerId=nobody&page=4&x=1&y=1&width=1&height=1"},
		{0, "participants", "firstName=Ann&lastName=Lee&email=ann@example.com&authenticationType=none&twoFactorContact=email"},
		{0, "participants/{p0}", "firstName=Pat&middleName=Q&lastName=Buyer&email=pat@example.com&phone=%2B1+555+0100&authenticationType=personalPassword&twoFactorContact=sms&personalPasswordQuestion=Q&personalPassword=secret&kbaRequired=on&credAnalysisRequired=on"},
		{0, "participants/{p1}/remove", ""},
		{0, "participants/{p0}/move", "to=1"},
		{0, "documents/0/title", "title=New+title"},
		{0, "documents/0/pages/1/delete", ""},
		{0, "documents/0/pages/1/move", "to=3"},
		{0, "documents/0/remove", ""},
		{0, "tags/{tag}", "x=1"},
		{1, "tags/{tag}", "type=&signerId={p0}&page=2.5&x=left&y=1e999&width=0&height=-1&required=yes&dateFormat=YY&fontSize=0x10"},
		{0, "participants", "firstName=+&lastName=Lee%0A&email=+bad+&phone=abc&authenticationType=retina&twoFactorContact=pigeon&personalPassword=x"},
	} {
		f.Add(s.method, s.suffix, s.form)
	}
	type fixture struct {
		env    *modelstest.Env
		tenant *modelstest.Tenant
		log    *fuzzLog
		s      *server
		doc    uploadedDoc
	}
	var fixtures []*fixture
	for _, d := range modelstest.Dialects() {
		env := modelstest.New(f, d)
		fixtures = append(fixtures, &fixture{env: env, tenant: env.NewTenant(f, "Fuzz"), log: &fuzzLog{}})
	}
	f.Fuzz(func(t *testing.T, method uint8, suffix, form string) {
		for _, fx := range fixtures {
			fx.log.t = t
			if fx.s == nil {
				fx.s = newServer(t, fx.env, func(d *handlers.Deps) {
					d.Logger = slog.New(slog.NewTextHandler(fx.log, &slog.HandlerOptions{Level: slog.LevelWarn}))
					// Every input opens a room and uploads a PDF through one
					// server: the rate limits (tested on their own) would
					// answer 429 long before the forms under test are reached.
					d.Config.RateLimits = handlers.RateLimits{Off: true}
				})
				fx.doc = fx.s.upload(fx.tenant.Token)
			}
			fx.s.t = t
			tr := openTagRoom(t, fx.s, fx.tenant, nil)
			signers := tr.participantIDs(t)
			tagID := tr.add(t, tagForm(signers[0]))
			expand := strings.NewReplacer("{p0}", signers[0], "{p1}", signers[1], "{tag}", tagID).Replace

			req, err := http.NewRequest([]string{http.MethodPost, http.MethodPut, http.MethodDelete}[method%3],
				tr.path+"/"+expand(suffix), strings.NewReader(expand(form)))
			if err != nil || req.URL.Path == "" || !strings.HasPrefix(req.URL.Path, tr.path) {
				return // not a URL a browser could send
			}
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.Header.Set("HX-Request", "true")
			req.Header.Set("X-CSRF-Token", tr.csrf)
			res := tr.b.do(req)
			if res.Code >= 500 {
				t.Fatalf("%s %s with %q: %d\n%s", req.Method, req.URL, expand(form), res.Code, res.Body.String())
			}
			if res := tr.b.get(tr.path); res.Code >= 500 {
				t.Fatalf("room page after the input: %d\n%.500s", res.Code, res.Body.String())
			}
			fx.s.do(api(http.MethodGet, "/api/v1/transactions/"+tr.room.TransactionID, tr.token, nil)).status(http.StatusOK)
		}
	})
}
