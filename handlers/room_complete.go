package handlers

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/handlers/route"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/review"
	"github.com/markuproom/markuproom/templates"
	"github.com/markuproom/markuproom/web/i18n"
)

// roomChecklist renders the "Create e-signature session" dialog's check
// for the room as it is now: GET /rooms/:id/checklist (an htmx fragment).
func (h *roomHandler) roomChecklist(c *gin.Context) error {
	ws, err := h.roomFor(c)
	if err != nil {
		return err
	}
	if ws.Room.Status(h.clock.Now()) != models.RoomOpen {
		return models.ErrRoomCompleted
	}
	check, err := h.rooms.RoomCheck(c.Request.Context(), ws)
	if err != nil {
		return err
	}
	addVary(c, "HX-Request")
	v := checklistView(ws, check, roomCSRFToken(c, ws.Room.ID))
	v.CompleteURL = withCarried(c, v.CompleteURL)
	render(c, http.StatusOK, templates.Checklist(v))
	return nil
}

// completeRoom creates the e-signature session: POST /rooms/:id/complete,
// then back to the room, now read-only with its summary (303). A refusal
// (a blocking finding, a failed validation) shows the room again with the
// dialog open (422); htmx and scripts get the problem.
func (h *roomHandler) completeRoom(c *gin.Context) error {
	id, err := h.roomPost(c)
	if err != nil {
		return err
	}
	_, err = h.rooms.CompleteRoom(c.Request.Context(), id, c.PostForm("notify") == "email")
	var (
		ve *models.ValidationError
		rb *models.ReviewBlockedError
	)
	if (errors.As(err, &ve) || errors.As(err, &rb)) && c.GetHeader("HX-Request") != "true" {
		ws, wsErr := h.rooms.RoomWorkspace(c.Request.Context(), id)
		if wsErr != nil {
			return wsErr
		}
		check, checkErr := h.rooms.RoomCheck(c.Request.Context(), ws)
		if checkErr != nil {
			return checkErr
		}
		v := roomView(h.assets, ws, h.clock.Now(), nil)
		h.withTemplateOffers(c, ws, &v)
		cl := checklistView(ws, check, roomCSRFToken(c, id))
		v.OpenChecklist = &cl
		h.renderRoomView(c, http.StatusUnprocessableEntity, v)
		return nil
	}
	if err != nil {
		return err
	}
	if carriedSession(c) != "" {
		// An embedded room: the session (and the chosen language) go on, and
		// the page tells its host.
		c.Redirect(http.StatusSeeOther, withCarried(c, route.Room.Path(id), "embed_event", "completed"))
		return nil
	}
	c.Redirect(http.StatusSeeOther, route.Room.Path(id))
	return nil
}

// invalidWords are why the transaction fails its validation: each field
// error's message (docs/i18n.md, "The room"), or the item's own sentence
// when it could not be checked.
func invalidWords(err error) []i18n.Words {
	var ve *models.ValidationError
	if !errors.As(err, &ve) {
		return []i18n.Words{i18n.Msg("room.checklist.valid.unchecked")}
	}
	var out []i18n.Words
	for _, f := range ve.Errors {
		out = append(out, messageWords(f.Message))
	}
	if len(out) == 0 {
		out = append(out, messageWords(ve.Message))
	}
	return out
}

// checklistView shapes the session check as words the view writes
// (docs/review.md):
// the blocking findings and a failed validation, then the warnings and the
// undecided suggested fields, each with the fix one click can make.
func checklistView(ws *models.RoomWorkspace, check *models.SessionCheck, csrf string) templates.ChecklistView {
	t := ws.Transaction
	v := templates.ChecklistView{Blocked: check.Blocked(), CompleteURL: route.RoomComplete.Path(ws.Room.ID), CSRFToken: csrf,
		NotifyEmail: t.OffersInvitations(), Warnings: check.Warnings()}
	for _, f := range check.Review.Findings {
		it := templates.ChecklistItemView{Code: f.Code, Finding: true, Problems: []i18n.Words{findingSentence(t, f, i18n.LeftToRight{Words: i18n.Ranges(f.Pages)})}}
		if fix, ok := findingFix(t, f); ok {
			it.Fixes = []templates.ChecklistFixView{fix}
			if f.Code == review.CodeTagNeedsLook { // or leave it where the revision put it
				keep := fix
				keep.Kind, keep.Label = "keep", i18n.Msg("room.review.fix.keep")
				it.Fixes = append(it.Fixes, keep)
			}
		}
		if f.Severity == review.Blocking {
			v.Blocking = append(v.Blocking, it)
		} else {
			v.Warning = append(v.Warning, it)
		}
	}
	if check.Invalid != nil {
		v.Blocking = append(v.Blocking, templates.ChecklistItemView{Code: models.CheckValid, Label: i18n.Msg("room.checklist.valid"), Problems: invalidWords(check.Invalid)})
	}
	if check.Undecided > 0 {
		v.Warning = append(v.Warning, templates.ChecklistItemView{Code: models.CheckSuggestionsDecided, Label: i18n.Msg("room.checklist.suggestions_decided"),
			Problems: []i18n.Words{i18n.Msg("room.checklist.suggestions_decided.problem", "count", check.Undecided)},
			Fixes:    []templates.ChecklistFixView{{URL: "#room-suggestions", Label: i18n.Msg("room.checklist.fix.suggestions")}}})
	}
	return v
}

// findingFix is what one click does about a finding: the review's own fix
// (copy the initials to the missing pages, show the tag, choose its
// signer), each with the tag's page as its link, or a link to where the
// finding is fixed by hand.
func findingFix(t *models.Transaction, f review.Finding) (templates.ChecklistFixView, bool) {
	pos := f.Document
	if pos >= 0 && pos < len(t.Documents) {
		pos = t.Documents[pos].Position
	}
	page := func(p int) string { return "#doc-" + strconv.Itoa(pos) + "-page-" + strconv.Itoa(p) }
	if fx := f.Fix; fx != nil {
		out := templates.ChecklistFixView{Kind: string(fx.Kind), TagID: fx.Tag, URL: page(firstOr(f.Pages, 1))}
		switch fx.Kind {
		case review.FixCopyToPages:
			pages := make([]string, len(fx.Pages))
			for i, p := range fx.Pages {
				pages[i] = strconv.Itoa(p)
			}
			out.Pages = strings.Join(pages, ",")
			out.Label = i18n.Msg("room.review.fix.copy_to_pages", "pages", i18n.LeftToRight{Words: i18n.Ranges(fx.Pages)}, "count", len(fx.Pages))
			if from := tagPage(t, f.Document, fx.Tag); from > 0 {
				out.URL = page(from)
			}
		case review.FixAssign:
			out.Label = i18n.Msg("room.review.fix.assign")
		default:
			out.Label = i18n.Msg("room.review.fix.show")
		}
		return out, true
	}
	switch f.Code {
	case review.CodeNoDocuments:
		return templates.ChecklistFixView{URL: "#documents-title", Label: i18n.Msg("room.checklist.fix.documents")}, true
	case review.CodeNoParticipants, review.CodeSharedEmail:
		return templates.ChecklistFixView{URL: "#participants-title", Label: i18n.Msg("room.checklist.fix.participants")}, true
	case review.CodeNothingToSign:
		return templates.ChecklistFixView{URL: "#palette-title", Label: i18n.Msg("room.checklist.fix.place_tags")}, true
	case review.CodeDocumentUntagged:
		return templates.ChecklistFixView{URL: page(1), Label: i18n.Msg("room.checklist.fix.document", "title", documentTitle(t, f.Document))}, true
	}
	return templates.ChecklistFixView{}, false
}

// tagPage is the page of the tag with id on the document at position doc
// (0 when it is not there).
func tagPage(t *models.Transaction, doc int, id string) int {
	if doc < 0 || doc >= len(t.Documents) {
		return 0
	}
	for _, tag := range t.Documents[doc].Tags {
		if tag.TagID == id {
			return tag.Page
		}
	}
	return 0
}

func firstOr(xs []int, or int) int {
	if len(xs) == 0 {
		return or
	}
	return xs[0]
}
