package handlers_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/handlers"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/web/i18n/i18ntest"
)

// consolePrefixes are the catalog areas of the console's overview,
// transactions, a transaction and its history, audit, activity and
// navigation (docs/i18n.md).
var consolePrefixes = []string{"admin.nav.", "admin.overview.", "admin.transactions.", "admin.transaction.",
	"admin.history.", "admin.audit.", "admin.activity.", "admin.list.", "admin.chart."}

// notThisArea are the parts of these pages whose words are data or other
// areas': the audit rows' stored actor, target and summary (their kind's
// badge stays), the history's actors (stored), the room's document viewer.
var notThisArea = []*regexp.Regexp{
	regexp.MustCompile(`(?s)<td title="[^"]*"( data-audit-(actor|target))?>.*?</td>`),
	regexp.MustCompile(`(?s)<td data-audit-(target|summary)>.*?</td>`),
	regexp.MustCompile(`(?s)<td><bdi>.*?</bdi></td>`),
	regexp.MustCompile(`(?s)<span class="admin-history__actor">.*?<span class="admin-history__words"`),
	regexp.MustCompile(`(?s)<div class="admin-viewer">.*?<section aria-labelledby="admin-messages-title">`),
}

// dataWords are the tests' data (names, the invitation's subject), the
// product's name and the action codes the audit filter shows as examples
// (its placeholder's "room.created" too).
var dataWords = strings.NewReplacer("Markup Room", " ", "Sam Sender", " ", "Ada Admin", " ", "Please review and sign your documents", " ",
	"participant.renamed", " ", "participant.", " ", "room.created", " ")

// consoleWords is a page's words, without the parts notThisArea names and
// the test's data.
func consoleWords(page string) string {
	for _, re := range notThisArea {
		page = re.ReplaceAllString(page, " ")
	}
	return dataWords.Replace(i18ntest.Words(page))
}

// Each console page of this area, with data (a transaction whose history
// has several kinds of entries, audit events, activity, figures), asked for
// in Spanish by Accept-Language and in Arabic by ?lang=, shows none of its
// English words, and says its language.
func TestAdminConsolePagesSpeakTheAskedLanguage(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		rec := models.NewRollupRecorder(env.Store, env.Clock.Now)
		s := newServer(t, env, func(d *handlers.Deps) { d.Requests = rec })
		tenant := env.NewTenant(t, "Acme")
		newAdmin(t, env, tenant.Org.ID, "ada@example.com")
		tr := openTagRoom(t, s, tenant, nil)
		signer := tr.participantIDs(t)[0]
		tr.add(t, tagForm(signer, "page", "1", "x", "20"))
		tr.b.post(tr.path+"/participants", url.Values{"csrf": {tr.csrf}, "firstName": {"Dana"}, "lastName": {"Doe"},
			"email": {"dana@example.com"}}).status(http.StatusSeeOther)
		tr.b.post(tr.path+"/documents/0/title", url.Values{"csrf": {tr.csrf}, "title": {"Lease"}}).status(http.StatusSeeOther)
		tr.send(http.MethodPost, tr.path+"/documents/0/pages/1/move", url.Values{"to": {"2"}}).status(http.StatusOK)
		if err := rec.Flush(context.Background()); err != nil {
			t.Fatal(err)
		}
		b, _ := adminSignIn(t, s, "ada@example.com", "correct horse")
		txPath := "/admin/transactions/" + tr.room.TransactionID
		// The English page has the history entries this test is about.
		english := b.get(txPath).status(http.StatusOK).Body.String()
		for _, want := range []string{"Created with", "Participant “Dana Doe” added", "Document renamed", "moved to position"} {
			if !strings.Contains(english, want) {
				t.Fatalf("the English history lacks %q", want)
			}
		}
		pages := []string{"/admin", "/admin/transactions", txPath, "/admin/audit", "/admin/audit?from=yesterday", "/admin/activity"}
		for _, p := range pages {
			req := httptest.NewRequest(http.MethodGet, p, nil)
			req.Header.Set("Accept-Language", "es-MX,es;q=0.9,en;q=0.5")
			page := b.do(req).Body.String()
			if !strings.Contains(page, `<html lang="es"`) {
				t.Errorf("%s in es: not a Spanish page", p)
			}
			if left := i18ntest.EnglishLeft(t, consoleWords(page), "es", consolePrefixes...); len(left) > 0 {
				t.Errorf("%s in es still shows English: %s", p, strings.Join(left, "; "))
			}
		}
		for _, p := range pages {
			sep := "?"
			if strings.Contains(p, "?") {
				sep = "&"
			}
			page := b.get(p + sep + "lang=ar").Body.String()
			if !strings.Contains(page, `<html lang="ar" dir="rtl"`) {
				t.Errorf("%s in ar: not an Arabic page", p)
			}
			if left := i18ntest.EnglishLeft(t, consoleWords(page), "ar", consolePrefixes...); len(left) > 0 {
				t.Errorf("%s in ar still shows English: %s", p, strings.Join(left, "; "))
			}
		}
	})
}
