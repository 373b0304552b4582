package handlers_test

import (
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models/modelstest"
)

// openFormRoom opens a room on an upload of content with the room config
// config (nil: the defaults).
func openFormRoom(t *testing.T, s *server, tenant *modelstest.Tenant, content []byte, config obj) *tagRoom {
	t.Helper()
	var d uploadedDoc
	s.do(uploadReq(tenant.Token, "form.pdf", content, "")).status(http.StatusCreated).json(&d)
	body := roomBody(tenant, d)
	if config != nil {
		body["config"] = config
	}
	r := s.createRoom(tenant.Token, body)
	b := s.browser()
	path := b.open(r.URL)
	html := b.get(path).status(http.StatusOK).Body.String()
	return &tagRoom{s: s, b: b, token: tenant.Token, room: r, path: path, csrf: csrf(t, html)}
}

var offerPattern = regexp.MustCompile(`Apply template ‘([^’]*)’ \((\d+)(?:&nbsp;|\x{a0}| )% match\)`)

// offer is the room page's template offer: the template's name and the
// percentage, ok false when the page offers none.
func (tr *tagRoom) offer(t *testing.T) (name string, percent int, ok bool) {
	t.Helper()
	html := tr.b.get(tr.path).status(http.StatusOK).Body.String()
	m := offerPattern.FindStringSubmatch(html)
	if m == nil {
		if strings.Contains(html, "data-template-offer") {
			t.Fatal("the page has a data-template-offer without its words")
		}
		return "", 0, false
	}
	if !strings.Contains(html, "data-template-offer") {
		t.Fatal("the offer's words without data-template-offer")
	}
	n, _ := strconv.Atoi(m[2])
	return m[1], n, true
}

// A room whose document is a known form filled in otherwise offers its
// template; a different form, a room with templates.apply or
// documents.edit off, and a document already carrying the template's tags
// offer none.
func TestRoomOffersTheTemplateADocumentMatches(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		acme := env.NewTenant(t, "Acme")
		blankID, _ := s.uploadMatches(acme.Token, rentalForm.pdf("__________", "__________", "__________", "__________", "__________"))
		tmpl, _ := s.createTemplate(acme.Token, obj{"name": "Rental application", "documents": arr{obj{"document": blankID}},
			"roles": arr{obj{"name": "Applicant"}},
			"tags":  arr{obj{"type": "SIGNATURETEMPLATE", "page": 1, "x": 72, "y": 100, "width": 120, "height": 30, "customData": obj{}, "document": 0, "role": "Applicant"}}})
		id := tmpl["id"].(string)
		filled := func() []byte {
			return rentalForm.pdf("Jonathan A. Whitfield", "1428 Elm Street, Springfield, IL 62704", "$6,250", "Margaret Olsen", "March 3, 2026")
		}

		room := openFormRoom(t, s, acme, filled(), nil)
		name, percent, ok := room.offer(t)
		if !ok || name != "Rental application" || percent < 90 || percent > 100 {
			t.Fatalf("the same form filled in: offer %q %d %v", name, percent, ok)
		}

		other := openFormRoom(t, s, acme, vehicleForm.pdf("Ford Focus SE", "1FADP3F2XJL123456", "48,120 miles", "$9,800", "June 15, 2026"), nil)
		if name, _, ok := other.offer(t); ok {
			t.Fatalf("a different form offers %q", name)
		}
		for _, config := range []obj{{"templates": obj{"apply": false}}, {"documents": obj{"edit": false}}} {
			off := openFormRoom(t, s, acme, filled(), config)
			if name, _, ok := off.offer(t); ok {
				t.Fatalf("config %v offers %q", config, name)
			}
		}

		// Applied: the document carries the template's tags, the offer is gone.
		people := room.participantIDs(t)
		room.roomJSON("/templates/apply", obj{"templateId": id, "document": 0, "roles": obj{"Applicant": people[0]}}, room.csrf).status(http.StatusCreated)
		if name, _, ok := room.offer(t); ok {
			t.Fatalf("after the apply, the room still offers %q", name)
		}
	})
}

// A room just saved as a template (the same form, its tags already where
// the template puts them) is not offered that template: applying it would
// add copies of the tags it has (issue 40). Another room on the form, with
// no tags, is; and the first room is again once one of those tags moves.
func TestRoomOffersNoTemplateWhoseTagsItAlreadyHas(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		acme := env.NewTenant(t, "Acme")
		filled := func() []byte {
			return rentalForm.pdf("Jonathan A. Whitfield", "1428 Elm Street, Springfield, IL 62704", "$6,250", "Margaret Olsen", "March 3, 2026")
		}
		room := openFormRoom(t, s, acme, filled(), nil)
		people := room.participantIDs(t)
		room.add(t, tagForm(people[0], "page", "1"))
		date := room.add(t, tagForm(people[1], "page", "1", "type", "DATETEMPLATE", "x", "300.25", "dateFormat", "MM/DD/YYYY"))
		room.saveTemplate(t, obj{"name": "Rental from the room", "documents": arr{0}, "roleNames": arr{"Signer 1", "Signer 2"}})

		if name, percent, ok := room.offer(t); ok {
			t.Fatalf("the room saved as the template is offered %q (%d %%)", name, percent)
		}
		other := openFormRoom(t, s, acme, filled(), nil)
		if name, _, ok := other.offer(t); !ok || name != "Rental from the room" {
			t.Fatalf("a room on the same form without tags: offer %q %v", name, ok)
		}
		// One of the template's tags is no longer where the template has it: applying would add it.
		room.send(http.MethodPut, room.path+"/tags/"+date, tagForm(people[1], "page", "1", "type", "DATETEMPLATE", "x", "400", "dateFormat", "MM/DD/YYYY")).status(http.StatusOK)
		if name, _, ok := room.offer(t); !ok || name != "Rental from the room" {
			t.Fatalf("after a move: offer %q %v", name, ok)
		}
	})
}
