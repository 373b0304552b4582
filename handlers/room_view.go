package handlers

import (
	"encoding/hex"
	"net/url"
	"strconv"
	"time"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/templates"
)

// roomView shapes a room workspace for the room page. form, when not nil, is
// a refused dialog to show open again.
func roomView(ws *models.RoomWorkspace, now time.Time, form *templates.ParticipantFormView) templates.RoomView {
	r, t := ws.Room, ws.Transaction
	cfg := r.Config
	status := r.Status(now)
	readOnly := status != models.RoomOpen
	base := "/rooms/" + r.ID
	heading := "New Markup Room"
	if len(t.Documents) > 0 {
		heading = t.Documents[0].Title
	}
	v := templates.RoomView{
		Title:       heading,
		Heading:     heading,
		RoomID:      r.ID,
		ReferenceID: t.ReferenceID,
		Status:      status,
		ReadOnly:    readOnly,
		SenderName:  ws.Sender.FullName(),
		SenderEmail: ws.Sender.Email,
		ExpiresAt:   r.ExpiresAt.UTC().Format("2 Jan 2006, 15:04 MST"),
		ExpiresISO:  r.ExpiresAt.UTC().Format(time.RFC3339),
		Can: templates.RoomControls{
			KBA: cfg.IDV.KBA, CredentialAnalysis: cfg.IDV.CredentialAnalysis,
			PersonalPassword: cfg.Authentication.PersonalPassword, TwoFactor: cfg.Authentication.TwoFactor,
			RenameDocument: cfg.Documents.Rename, EditTags: cfg.Documents.Edit, AdvancedEdit: cfg.Documents.AdvancedEdit,
			AddParticipant: cfg.Participants.Add, EditParticipant: cfg.Participants.Edit, RemoveParticipant: cfg.Participants.Remove,
		},
		AuthOptions:       authOptions(cfg),
		ContactOptions:    []templates.OptionView{{Value: models.ContactEmail, Label: "E-mail"}, {Value: models.ContactSMS, Label: "SMS"}},
		AddParticipantURL: base + "/participants",
	}
	if readOnly {
		v.Can = templates.RoomControls{}
	}
	for _, tt := range models.TagTypes() {
		v.TagTypes = append(v.TagTypes, templates.TagTypeView{Code: tt.Code, Label: tt.Label, Group: tt.Group})
	}
	labels := map[string]string{}
	for _, tt := range models.TagTypes() {
		labels[tt.Code] = tt.Label
	}
	names := map[string]string{}
	colors := map[string]string{}
	tagCounts := map[string]int{}
	for i, p := range t.Participants {
		names[p.ParticipantID] = p.FullName()
		colors[p.ParticipantID] = models.SignerColor(i)
	}
	for _, d := range t.Documents {
		dv := templates.RoomDocumentView{
			Position: d.Position, Title: d.Title, PageCount: d.Pages, TagCount: len(d.Tags),
			RenameURL:  base + "/documents/" + strconv.Itoa(d.Position) + "/title",
			ContentURL: base + "/documents/" + strconv.Itoa(d.Position) + "/content",
		}
		upload := ws.Uploads[d.DocumentID]
		for n := 1; n <= d.Pages; n++ {
			box := pdf.Box{URX: 612, URY: 792} // US Letter when the upload is unknown
			if upload != nil && n <= len(upload.Pages) {
				box = upload.Pages[n-1].CropBox
			}
			pv := templates.RoomPageView{Number: n, ViewBox: "0 0 " + num(box.Width()) + " " + num(box.Height())}
			for _, tag := range d.Tags {
				if tag.Page != n {
					continue
				}
				tagCounts[tag.SignerID]++
				pv.Tags = append(pv.Tags, templates.RoomTagView{
					X: num(tag.X - box.LLX), Y: num(box.URY - tag.Y - tag.Height),
					Width: num(tag.Width), Height: num(tag.Height),
					Color: colors[tag.SignerID], Label: labels[tag.Type], SignerName: names[tag.SignerID],
				})
			}
			dv.Pages = append(dv.Pages, pv)
		}
		v.Documents = append(v.Documents, dv)
	}
	for i, p := range t.Participants {
		pv := templates.RoomParticipantView{
			ID: p.ParticipantID, Name: p.FullName(), Email: p.Email, Color: models.SignerColor(i),
			AuthLabel: authLabel(p.AuthenticationType), TagCount: tagCounts[p.ParticipantID],
			RemoveURL: base + "/participants/" + url.PathEscape(p.ParticipantID) + "/remove",
			Form:      participantFormFromModel(base, &p),
		}
		if p.KBARequired != nil && *p.KBARequired {
			pv.Checks = append(pv.Checks, "Knowledge-based authentication")
		}
		if p.CredAnalysisRequired != nil && *p.CredAnalysisRequired {
			pv.Checks = append(pv.Checks, "Credential analysis")
		}
		if form != nil && form.DialogID == pv.Form.DialogID {
			pv.Form = *form
		}
		v.Participants = append(v.Participants, pv)
	}
	v.AddForm = templates.ParticipantFormView{DialogID: "participant-add", Heading: "Add participant", Action: v.AddParticipantURL,
		AuthenticationType: models.AuthNone, TwoFactorContact: models.ContactEmail}
	if form != nil && form.DialogID == v.AddForm.DialogID {
		v.AddForm = *form
	}
	return v
}

func authOptions(cfg models.RoomConfig) []templates.OptionView {
	opts := []templates.OptionView{{Value: models.AuthNone, Label: "None"}}
	if cfg.Authentication.PersonalPassword {
		opts = append(opts, templates.OptionView{Value: models.AuthPersonalPassword, Label: "Personal Password"})
	}
	if cfg.Authentication.TwoFactor {
		opts = append(opts, templates.OptionView{Value: models.AuthTwoFactor, Label: "Two factor"})
	}
	return opts
}

func authLabel(t string) string {
	switch t {
	case models.AuthPersonalPassword:
		return "Personal password"
	case models.AuthTwoFactor:
		return "Two-factor"
	default:
		return "No extra authentication"
	}
}

// editDialogID names a participant's edit dialog (caller ids may hold any character).
func editDialogID(participantID string) string {
	return "participant-edit-" + hex.EncodeToString([]byte(participantID))
}

func participantFormFromModel(base string, p *models.Participant) templates.ParticipantFormView {
	return templates.ParticipantFormView{
		DialogID: editDialogID(p.ParticipantID), Heading: "Edit participant",
		Action:    base + "/participants/" + url.PathEscape(p.ParticipantID),
		FirstName: p.FirstName, MiddleName: deref(p.MiddleName), LastName: p.LastName, Email: p.Email,
		Phone: deref(p.Phone), AuthenticationType: p.AuthenticationType, TwoFactorContact: p.TwoFactorContact,
		PersonalPasswordQuestion: deref(p.PersonalPasswordQuestion), HasPassword: p.PersonalPasswordHash != nil,
		KBARequired: p.KBARequired != nil && *p.KBARequired, CredAnalysisRequired: p.CredAnalysisRequired != nil && *p.CredAnalysisRequired,
	}
}

// participantFormView re-creates a dialog from a refused submission.
func participantFormView(participantID string, f models.ParticipantForm) *templates.ParticipantFormView {
	v := &templates.ParticipantFormView{
		Open: true, FirstName: f.FirstName, MiddleName: f.MiddleName, LastName: f.LastName, Email: f.Email,
		Phone: f.Phone, AuthenticationType: f.AuthenticationType, TwoFactorContact: f.TwoFactorContact,
		PersonalPasswordQuestion: f.PersonalPasswordQuestion, KBARequired: f.KBARequired,
		CredAnalysisRequired: f.CredAnalysisRequired,
	}
	if participantID == "" {
		v.DialogID, v.Heading = "participant-add", "Add participant"
	} else {
		v.DialogID, v.Heading = editDialogID(participantID), "Edit participant"
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
