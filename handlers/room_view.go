package handlers

import (
	"encoding/hex"
	"encoding/json"
	"strconv"
	"time"

	"github.com/markuproom/markuproom/handlers/route"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/passwordhash"
	"github.com/markuproom/markuproom/models/tagtype"
	"github.com/markuproom/markuproom/static"
	"github.com/markuproom/markuproom/templates"
	"github.com/markuproom/markuproom/web/i18n"
)

// roomView shapes a room workspace for the room page.
// form, when not nil, is a refused dialog to show open again.
func roomView(assets *static.Assets, ws *models.RoomWorkspace, now time.Time, form *templates.ParticipantFormView) templates.RoomView {
	r, t := ws.Room, ws.Transaction
	cfg := r.Config
	status := r.Status(now)
	readOnly := status != models.RoomOpen
	titles := make([]string, len(t.Documents))
	for i, d := range t.Documents {
		titles[i] = d.Title
	}
	v := templates.RoomView{
		Heading:        templates.RoomHeading(t.ReferenceID, r.ID, titles),
		RoomID:         r.ID,
		TransactionID:  r.TransactionID,
		EmbedOrigin:    r.EmbedOrigin,
		ReferenceID:    t.ReferenceID,
		Status:         status,
		ReadOnly:       readOnly,
		SenderName:     ws.Sender.FullName(),
		SenderEmail:    ws.Sender.Email,
		ExpiresAt:      r.ExpiresAt,
		ExpiresISO:     r.ExpiresAt.UTC().Format(time.RFC3339),
		Can:            roomControls(cfg),
		AuthOptions:    authOptions(cfg),
		ContactOptions: []templates.OptionView{{Value: models.ContactEmail, Label: i18n.Msg("room.participant.contact.email")}, {Value: models.ContactSMS, Label: i18n.Msg("room.participant.contact.sms")}},
		Limits: templates.InputLimits{
			Name: models.MaxNameLength, Email: models.MaxEmailLength, Title: models.MaxTitleLength, ShortText: models.MaxShortTextLength,
			StateFormat: models.MaxStateFormatLength, Password: passwordhash.MaxPasswordLength, FontSizeMax: models.MaxTagFontSize,
		},
		AddParticipantURL: route.RoomParticipants.Path(r.ID),
		ChecklistURL:      route.RoomChecklist.Path(r.ID),
		CompleteURL:       route.RoomComplete.Path(r.ID),
	}
	if readOnly {
		v.Can = templates.RoomControls{}
	} else {
		// The stream starts after the last event this markup shows (docs/live.md).
		v.EventsURL, v.EventSeq = route.RoomEvents.Path(r.ID)+"?lastEventId="+strconv.FormatInt(r.EventSeq, 10), r.EventSeq
		v.PresenceURL = route.RoomPresence.Path(r.ID)
	}
	if len(t.Documents) > 0 && len(t.Participants) > 0 {
		v.PreviewScript, v.PreviewStyle = assets.URL("js/preview.js"), assets.URL("css/preview.css")
	}
	v.Viewer = viewerView(assets, t, ws.Uploads, func(pos int) string {
		// By version: a page edit makes a new one, and a removal moves the others up.
		return route.RoomDocumentPDF.Path(r.ID, t.Documents[pos].DocumentID)
	}, v.Can.EditTags)
	if v.Can.EditTags {
		v.Viewer.TagURL = route.RoomTags.Path(r.ID)
		v.Viewer.SuggestionsURL = route.RoomSuggestions.Path(r.ID)
		v.Viewer.BatchURL = route.RoomTagBatch.Path(r.ID)
		for i := range v.Viewer.Documents {
			d := &v.Viewer.Documents[i]
			d.Suggestions = suggestionViews(ws.Suggestions[d.Position])
			roomEditURLs(r.ID, d, v.Can.AdvancedEdit)
		}
	}
	for i := range v.Viewer.Documents {
		v.Viewer.Documents[i].TextTags = textTagsJSON(ws.Uploads[v.Viewer.Documents[i].ID])
	}
	v.TagGroups = paletteGroups()
	v.DateFormats = models.DateFormats()[:10]
	var tagCounts map[string]int
	v.Documents, v.PageTotal, tagCounts = roomDocuments(r.ID, t.Documents)
	v.Participants = roomParticipants(r.ID, t, tagCounts, form)
	if status == models.RoomCompleted {
		v.Summary = roomSummary(ws)
	}
	if !readOnly && r.CanAddDocuments() {
		v.UploadURL = route.RoomDocuments.Path(r.ID)
	}
	v.Templates = roomTemplatesView(ws, v)
	v.AddForm = templates.ParticipantFormView{DialogID: "participant-add", Heading: i18n.Msg("room.participant.add_title"), Action: v.AddParticipantURL,
		AuthenticationType: models.AuthNone, TwoFactorContact: models.ContactEmail}
	if form != nil && form.DialogID == v.AddForm.DialogID {
		v.AddForm = *form
	}
	return v
}

// roomControls are the controls the room's flags turn on.
func roomControls(cfg models.RoomConfig) templates.RoomControls {
	return templates.RoomControls{
		KBA: cfg.IDV.KBA, CredentialAnalysis: cfg.IDV.CredentialAnalysis,
		PersonalPassword: cfg.Authentication.PersonalPassword, TwoFactor: cfg.Authentication.TwoFactor,
		RenameDocument: cfg.Documents.Rename, EditTags: cfg.Documents.Edit, AdvancedEdit: cfg.Documents.AdvancedEdit,
		AddParticipant: cfg.Participants.Add, EditParticipant: cfg.Participants.Edit, RemoveParticipant: cfg.Participants.Remove,
		SaveTemplate: cfg.Templates.Save, ApplyTemplate: cfg.Templates.Apply && cfg.Documents.Edit,
	}
}

// roomDocuments is the documents panel: each document with its pages and
// their tag counts. It returns the pages of all documents together and the
// tags of each signer, by participant id.
func roomDocuments(roomID string, docs []models.TransactionDocument) (views []templates.RoomDocumentView, pageTotal int, tagCounts map[string]int) {
	tagCounts = map[string]int{}
	for _, d := range docs {
		dv := templates.RoomDocumentView{
			Position: d.Position, Title: d.Title, PageCount: d.Pages, TagCount: len(d.Tags),
			RenameURL: route.RoomDocumentTitle.Path(roomID, strconv.Itoa(d.Position)),
			RemoveURL: route.RoomDocumentRemove.Path(roomID, strconv.Itoa(d.Position)),
			ReviseURL: route.RoomDocumentRevise.Path(roomID, strconv.Itoa(d.Position)),
		}
		perPage := make([]int, d.Pages+1)
		for _, tag := range d.Tags {
			tagCounts[tag.SignerID]++
			if tag.Page >= 1 && tag.Page <= d.Pages {
				perPage[tag.Page]++
			}
		}
		for n := 1; n <= d.Pages; n++ {
			pos, page := strconv.Itoa(d.Position), strconv.Itoa(n)
			dv.Pages = append(dv.Pages, templates.RoomPageView{
				Number: n, TagCount: perPage[n], First: n == 1, Last: n == d.Pages,
				MoveURL: route.RoomPageMove.Path(roomID, pos, page), DeleteURL: route.RoomPageDelete.Path(roomID, pos, page),
			})
		}
		pageTotal += d.Pages
		views = append(views, dv)
	}
	return views, pageTotal, tagCounts
}

// roomParticipants is the participants panel, in signing order; form, when
// it belongs to one of them, is that participant's refused edit form.
func roomParticipants(roomID string, t *models.Transaction, tagCounts map[string]int, form *templates.ParticipantFormView) []templates.RoomParticipantView {
	var views []templates.RoomParticipantView
	for i, p := range t.Participants {
		pv := templates.RoomParticipantView{
			ID: p.ParticipantID, Name: p.FullName(), Email: p.Email, ColorClass: signerClass(i), Initials: initials(p.FirstName, p.LastName),
			AuthLabel: authLabel(p.AuthenticationType), TagCount: tagCounts[p.ParticipantID],
			RemoveURL: route.RoomParticipantRemove.Path(roomID, p.ParticipantID),
			MoveURL:   route.RoomParticipantMove.Path(roomID, p.ParticipantID),
			First:     i == 0, Last: i == len(t.Participants)-1,
			Form: participantFormFromModel(roomID, &p),
		}
		if t.SigningOrder != nil && *t.SigningOrder {
			pv.Order = i + 1
		}
		if p.KBARequired != nil && *p.KBARequired {
			pv.Checks = append(pv.Checks, i18n.Msg("room.participant.check.kba"))
		}
		if p.CredAnalysisRequired != nil && *p.CredAnalysisRequired {
			pv.Checks = append(pv.Checks, i18n.Msg("room.participant.credential_analysis"))
		}
		if form != nil && form.DialogID == pv.Form.DialogID {
			pv.Form = *form
		}
		views = append(views, pv)
	}
	return views
}

// suggestionViews are the suggested fields the room offers on a document
// (its data-suggested-fields).
func suggestionViews(list []models.RoomSuggestion) []templates.SuggestionView {
	out := make([]templates.SuggestionView, len(list))
	for i, s := range list {
		out[i] = templates.SuggestionView{
			Key: s.Key, Page: s.Page, Type: s.Type, Text: s.Text, X: s.X, Y: s.Y, Width: s.Width, Height: s.Height,
			Required: s.Required, DateFormat: s.DateFormat, FontSize: s.FontSize, Confidence: s.Confidence,
		}
		if tt, ok := tagtype.ByCode(s.Type); ok {
			out[i].LabelID = tt.Key.Name
		}
	}
	return out
}

// textTagsJSON is the data-text-tags of a document: where its upload
// prints text tags, "" when nowhere (or unknown: its detection unread).
func textTagsJSON(up *models.Document) string {
	if up == nil {
		return ""
	}
	found, err := up.TextTagBoxes()
	if err != nil || len(found) == 0 { // an unreadable stored detection: nothing to cover
		return ""
	}
	out := make([]templates.TextTagBox, len(found))
	for i, t := range found {
		out[i] = templates.TextTagBox{Page: t.Page, X: t.X, Y: t.Y, Width: t.Width, Height: t.Height}
	}
	data, err := json.Marshal(out)
	if err != nil { // plain numbers: cannot fail
		return ""
	}
	return string(data)
}

// roomSummary describes the session a completed room created.
func roomSummary(ws *models.RoomWorkspace) *templates.RoomSummaryView {
	t := ws.Transaction
	sum := &templates.RoomSummaryView{TransactionID: t.ID, Status: t.Status, TagCount: t.TagCount, CompletedAt: ws.Room.CompletedAt}
	for i := range t.Participants {
		sum.Participants = append(sum.Participants, templates.RoomSummaryPerson{Name: t.Participants[i].FullName(), Email: t.Participants[i].Email})
	}
	for _, d := range t.Documents {
		sum.Documents = append(sum.Documents, templates.RoomSummaryDocument{Title: d.Title, Pages: d.Pages, TagCount: len(d.Tags)})
	}
	sum.Invitations = invitationWords(t.NotifyEmail != nil && *t.NotifyEmail, ws.Invitations)
	return sum
}

// invitationWords says what the outbox has done with a completed room's
// invitations (counts by status, models.Store.InvitationCounts): held
// without an SMTP server, still queued, undeliverable, or sent — "sent"
// only when every one was delivered.
func invitationWords(asked bool, n map[models.MessageStatus]int64) i18n.Words {
	switch {
	case !asked:
		return i18n.Msg("room.summary.not_emailed")
	case n[models.MessageHeld] > 0:
		return i18n.Msg("room.summary.invitations_held")
	case n[models.MessagePending]+n[models.MessageSending] > 0:
		return i18n.Msg("room.summary.invitations_queued")
	case n[models.MessageDead] > 0:
		return i18n.Msg("room.summary.invitations_dead")
	case n[models.MessageSent] > 0:
		return i18n.Msg("room.summary.invitations_sent")
	default:
		return i18n.Msg("room.summary.invitations_none")
	}
}

func authOptions(cfg models.RoomConfig) []templates.OptionView {
	opts := []templates.OptionView{{Value: models.AuthNone, Label: i18n.Msg("room.participant.auth.none")}}
	if cfg.Authentication.PersonalPassword {
		opts = append(opts, templates.OptionView{Value: models.AuthPersonalPassword, Label: i18n.Msg("room.participant.auth.personal_password")})
	}
	if cfg.Authentication.TwoFactor {
		opts = append(opts, templates.OptionView{Value: models.AuthTwoFactor, Label: i18n.Msg("room.participant.auth.two_factor")})
	}
	return opts
}

// authLabel is a participant's authentication in words (the room's list, the console).
func authLabel(t string) i18n.Words {
	switch t {
	case models.AuthPersonalPassword:
		return i18n.Msg("room.participant.personal_password")
	case models.AuthTwoFactor:
		return i18n.Msg("room.participant.auth_label.two_factor")
	default:
		return i18n.Msg("room.participant.auth_label.none")
	}
}

// editDialogID names a participant's edit dialog (caller ids may hold any character).
func editDialogID(participantID string) string {
	return "participant-edit-" + hex.EncodeToString([]byte(participantID))
}

func participantFormFromModel(roomID string, p *models.Participant) templates.ParticipantFormView {
	return templates.ParticipantFormView{
		DialogID: editDialogID(p.ParticipantID), Heading: i18n.Msg("room.participant.edit_title"),
		Action:    route.RoomParticipant.Path(roomID, p.ParticipantID),
		FirstName: p.FirstName, MiddleName: deref(p.MiddleName), LastName: p.LastName, Email: p.Email,
		Phone: deref(p.Phone), AuthenticationType: p.AuthenticationType, TwoFactorContact: p.TwoFactorContact,
		PersonalPasswordQuestion: deref(p.PersonalPasswordQuestion), HasPassword: p.PersonalPasswordHash != nil,
		KBARequired: p.KBARequired != nil && *p.KBARequired, CredAnalysisRequired: p.CredAnalysisRequired != nil && *p.CredAnalysisRequired,
		Locale: deref(p.Locale),
	}
}

// participantFormView re-creates a dialog from a refused submission.
func participantFormView(participantID string, f models.ParticipantForm) *templates.ParticipantFormView {
	v := &templates.ParticipantFormView{
		Open: true, FirstName: f.FirstName, MiddleName: f.MiddleName, LastName: f.LastName, Email: f.Email,
		Phone: f.Phone, AuthenticationType: f.AuthenticationType, TwoFactorContact: f.TwoFactorContact,
		PersonalPasswordQuestion: f.PersonalPasswordQuestion, KBARequired: f.KBARequired,
		CredAnalysisRequired: f.CredAnalysisRequired, Locale: f.Locale,
	}
	if participantID == "" {
		v.DialogID, v.Heading = "participant-add", i18n.Msg("room.participant.add_title")
	} else {
		v.DialogID, v.Heading = editDialogID(participantID), i18n.Msg("room.participant.edit_title")
	}
	return v
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// roomEditURLs gives a room document of the viewer the URLs the editor sends
// its changes to (docs/frontend.md: the browser composes no path): each
// tag's, and, when the room allows page edits, the document's and each
// page's.
func roomEditURLs(roomID string, d *templates.ViewerDocument, pageEdits bool) {
	pos := strconv.Itoa(d.Position)
	if pageEdits {
		d.RestoreURL = route.RoomDocumentRestore.Path(roomID, pos)
		d.RemoveURL = route.RoomDocumentRemove.Path(roomID, pos)
		d.ReviseURL = route.RoomDocumentRevise.Path(roomID, pos)
	}
	for i := range d.Pages {
		pg := &d.Pages[i]
		if pageEdits {
			page := strconv.Itoa(pg.Number)
			pg.MoveURL, pg.DeleteURL = route.RoomPageMove.Path(roomID, pos, page), route.RoomPageDelete.Path(roomID, pos, page)
		}
		for j := range pg.Tags {
			pg.Tags[j].SaveURL = route.RoomTag.Path(roomID, pg.Tags[j].ID)
		}
	}
}
