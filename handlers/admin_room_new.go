package handlers

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/gin-contrib/sessions"
	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/handlers/route"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/templates"
	"github.com/markuproom/markuproom/templates/admin"
	"github.com/markuproom/markuproom/web/i18n"
)

// AdminRoomCreateStore makes Markup Rooms from the console: the choices the
// form offers for an organization, and the room itself (the API's
// CreateRoom, with the form's uploads saved in the same transaction).
type AdminRoomCreateStore interface {
	GetOrganization(ctx context.Context, id int64) (*models.Organization, error)
	RoomSenders(ctx context.Context, orgID int64) ([]models.User, error)
	RecentDocuments(ctx context.Context, orgID int64, limit int) ([]models.Document, error)
	LiveTemplates(ctx context.Context, orgID int64) ([]models.Template, error)
	StageUpload(ctx context.Context, r io.Reader, maxBytes int64, fileName string) (*models.StagedUpload, error)
	CreateRoomWithUploads(ctx context.Context, actor models.Actor, in *models.RoomInput, uploads []models.RoomUpload) (*models.CreatedRoom, error)
	RoomByID(ctx context.Context, id string) (*models.Room, error)
}

// Bounds of the console's "New Markup Room" form.
const (
	// newRoomRecent is how many recent uploads the form offers.
	newRoomRecent = 20
	// newRoomMaxFiles is how many PDFs one form may upload.
	newRoomMaxFiles = 10
	// newRoomBlankRows is how many empty participant rows the form offers.
	newRoomBlankRows = 3
	// newRoomSessionKey keeps new rooms' URLs ("roomID=token" lines) in the
	// console's encrypted session cookie from the POST to the one page that
	// shows each; newRoomsKept bounds them (rooms made in several tabs).
	newRoomSessionKey = "newRoom"
	newRoomsKept      = 3
)

// adminNewRoom shows the form: GET /admin/rooms/new?org=ID (the
// organization chosen, the rest of the form follows it).
func (h *adminHandler) adminNewRoom(c *gin.Context) error {
	v := admin.NewRoomView{OrganizationID: strings.TrimSpace(c.Query("org"))}
	if v.OrganizationID != "" {
		if _, err := strconv.ParseInt(v.OrganizationID, 10, 64); err != nil {
			v.OrganizationID, v.Errors = "", map[string]i18n.Words{"organization": i18n.Msg("admin.room_new.error.organization")}
		}
	}
	for range newRoomBlankRows {
		v.Participants = append(v.Participants, admin.NewRoomParticipantView{})
	}
	v.FlagGroups = roomFlagGroups(models.DefaultRoomConfig())
	return h.renderNewRoom(c, http.StatusOK, v, nil)
}

// renderNewRoom fills the form's choices for its organization and renders
// it; picked marks the recent uploads already chosen.
func (h *adminHandler) renderNewRoom(c *gin.Context, status int, v admin.NewRoomView, picked map[string]bool) error {
	ctx := c.Request.Context()
	orgs, err := h.transactions.OrganizationNames(ctx)
	if err != nil {
		return err
	}
	for _, o := range orgs {
		v.Organizations = append(v.Organizations, templates.OptionView{Value: strconv.FormatInt(o.ID, 10), Label: i18n.Plain(o.Name)})
	}
	v.Action, v.RoomsURL, v.CSRFToken = route.AdminRoomNew.Path(), route.AdminRooms.Path(), csrfToken(c)
	v.MaxUploadMB, v.MaxFiles = int(h.cfg.MaxUploadBytes>>20), newRoomMaxFiles
	if v.OrganizationID != "" {
		if err := h.fillNewRoomChoices(ctx, &v, picked); err != nil {
			return err
		}
	}
	render(c, status, admin.NewRoomPage(h.adminPage(c, i18n.Msg("admin.room_new.title"), route.AdminRooms.Path()), v))
	return nil
}

// fillNewRoomChoices reads what the chosen organization offers: its
// senders, recent uploads and live templates.
func (h *adminHandler) fillNewRoomChoices(ctx context.Context, v *admin.NewRoomView, picked map[string]bool) error {
	orgID, _ := strconv.ParseInt(v.OrganizationID, 10, 64)
	org, err := h.newRooms.GetOrganization(ctx, orgID)
	if errors.Is(err, models.ErrNotFound) {
		v.OrganizationID, v.Errors = "", map[string]i18n.Words{"organization": i18n.Msg("admin.room_new.error.organization")}
		return nil
	}
	if err != nil {
		return err
	}
	v.OrganizationName = org.Name
	v.EmbedOrigins, v.OrganizationURL = org.AllowedEmbedOrigins(), route.AdminOrganization.Path(strconv.FormatInt(org.ID, 10))
	if v.EmbedOrigin != "" && !slices.Contains(v.EmbedOrigins, v.EmbedOrigin) {
		v.EmbedOrigins = append(v.EmbedOrigins, v.EmbedOrigin) // refused beside the field, shown as sent
	}
	senders, err := h.newRooms.RoomSenders(ctx, orgID)
	if err != nil {
		return err
	}
	for _, u := range senders {
		v.Senders = append(v.Senders, templates.OptionView{Value: strconv.FormatInt(u.ID, 10), Label: i18n.Plain(u.FullName() + " <" + u.Email + ">")})
	}
	docs, err := h.newRooms.RecentDocuments(ctx, orgID, newRoomRecent)
	if err != nil {
		return err
	}
	for _, d := range docs {
		v.Recent = append(v.Recent, admin.RecentDocumentView{ID: d.ID, Title: d.Title, Pages: d.PageCount,
			Uploaded: d.CreatedAt,
			SizeKB:   int((d.SizeBytes + 1023) / 1024), ShortID: shortID(d.ID), Checked: picked[d.ID]})
	}
	tpls, err := h.newRooms.LiveTemplates(ctx, orgID)
	if err != nil {
		return err
	}
	for _, t := range tpls {
		v.Templates = append(v.Templates, templates.OptionView{Value: t.ID, Label: i18n.Plain(t.Name)})
	}
	return nil
}

// adminCreateRoom creates the room: POST /admin/rooms/new (multipart, the
// CSRF token before the files). The room is operation B's, made by the
// same model code; on success the browser is sent to the page that shows
// its URL once (adminRoomCreated), on a refusal the form comes back with
// each problem beside its field and nothing written.
func (h *adminHandler) adminCreateRoom(c *gin.Context) error {
	f, err := h.readNewRoomForm(c)
	defer f.close()
	if err != nil {
		return err
	}
	v := f.view()
	if f.addRow || len(f.problems) > 0 {
		status := http.StatusOK
		if len(f.problems) > 0 {
			status = http.StatusUnprocessableEntity
			v.Errors, v.Error = f.problems, i18n.Msg("admin.room_new.error.summary")
		}
		v.Participants = append(v.Participants, admin.NewRoomParticipantView{})
		return h.renderNewRoom(c, status, v, f.picked())
	}
	created, err := h.createConsoleRoom(c, f)
	var ve *models.ValidationError
	var ae *models.AuthError
	switch {
	case errors.As(err, &ve):
		v.Errors, v.Error = newRoomProblems(ve, v.Participants), i18n.Msg("admin.room_new.error.summary")
	case errors.As(err, &ae):
		v.Errors, v.Error = map[string]i18n.Words{"sender": i18n.Msg("admin.room_new.error.sender_inactive")}, i18n.Msg("admin.room_new.error.summary")
	case err != nil:
		return err
	default:
		return h.showRoomOnce(c, created)
	}
	v.Participants = append(v.Participants, admin.NewRoomParticipantView{})
	return h.renderNewRoom(c, http.StatusUnprocessableEntity, v, f.picked())
}

// createConsoleRoom builds operation B's input from the form and creates
// the room, its uploads saved in the same transaction, named in the
// history by the signed-in admin.
func (h *adminHandler) createConsoleRoom(c *gin.Context, f *newRoomForm) (*models.CreatedRoom, error) {
	in, err := f.room.Input()
	if err != nil {
		return nil, err
	}
	actor := models.ConsoleRoomActor(f.orgID, adminFrom(c))
	return h.newRooms.CreateRoomWithUploads(c.Request.Context(), actor, in, f.uploads)
}

// showRoomOnce keeps the new room's URL in the session and sends the
// browser to the page that shows it (a reload of that page no longer can).
func (h *adminHandler) showRoomOnce(c *gin.Context, created *models.CreatedRoom) error {
	s := sessions.Default(c)
	kept, _ := s.Get(newRoomSessionKey).(string)
	entries := append(strings.Fields(kept), created.Room.ID+"="+created.Token)
	if len(entries) > newRoomsKept { // rooms made in other tabs and never shown
		entries = entries[len(entries)-newRoomsKept:]
	}
	s.Set(newRoomSessionKey, strings.Join(entries, "\n"))
	if err := s.Save(); err != nil {
		return err
	}
	c.Redirect(http.StatusSeeOther, route.AdminRoomCreated.Path(created.Room.ID))
	return nil
}

// adminRoomCreated shows a room made in the console: GET
// /admin/rooms/:id/created. Its URL appears the first time only: the
// session forgets it as it is shown.
func (h *adminHandler) adminRoomCreated(c *gin.Context) error {
	ctx := c.Request.Context()
	r, err := h.newRooms.RoomByID(ctx, c.Param("id"))
	if err != nil {
		return err
	}
	t, err := h.transactions.AdminGetTransaction(ctx, r.TransactionID)
	if err != nil {
		return err
	}
	v := admin.RoomCreatedView{ID: r.ID, ShortID: shortID(r.ID), Organization: t.Organization.Name, Sender: r.SenderName,
		Expires:        r.ExpiresAt,
		TransactionURL: route.AdminTransaction.Path(r.TransactionID), RoomsURL: route.AdminRooms.Path(), NewRoomURL: route.AdminRoomNew.Path(),
		Participants: len(t.Transaction.Participants), Documents: len(t.Transaction.Documents), EmbedOrigin: r.EmbedOrigin}
	s := sessions.Default(c)
	kept, _ := s.Get(newRoomSessionKey).(string)
	var rest []string
	for _, e := range strings.Split(kept, "\n") {
		if token, ok := strings.CutPrefix(e, r.ID+"="); ok && v.URL == "" {
			v.URL = h.cfg.BaseURL + models.RoomURLPath(token)
		} else if e != "" {
			rest = append(rest, e)
		}
	}
	if v.URL != "" {
		s.Set(newRoomSessionKey, strings.Join(rest, "\n"))
		if err := s.Save(); err != nil {
			return err
		}
	}
	render(c, http.StatusOK, admin.RoomCreatedPage(h.adminPage(c, i18n.Msg("admin.room_new.created.title"), route.AdminRooms.Path()), v))
	return nil
}

// newRoomProblems puts each problem of a refused room beside its field:
// the pointers of operation B's body (#/senderId, #/documents/1,
// #/participants/0/email, #/templateId, #/config…) name the form's fields.
func newRoomProblems(ve *models.ValidationError, rows []admin.NewRoomParticipantView) map[string]i18n.Words {
	out := map[string]i18n.Words{}
	add := func(field string, msg i18n.Words) {
		if out[field] == nil {
			out[field] = msg
		}
	}
	for _, fe := range ve.Errors {
		msg := messageWords(fe.Message)
		switch p := fe.Pointer; {
		case p == "#/senderId":
			add("sender", msg)
		case strings.HasPrefix(p, "#/documents"):
			add("documents", msg)
		case strings.HasPrefix(p, "#/participants/"):
			rest := strings.TrimPrefix(p, "#/participants/")
			i, err := strconv.Atoi(strings.SplitN(rest, "/", 2)[0])
			if err == nil && i < len(rows) && rows[i].Error == nil {
				rows[i].Error = msg
				continue
			}
			add("participants", msg)
		case strings.HasPrefix(p, "#/participants"):
			add("participants", msg)
		case strings.HasPrefix(p, "#/templateId"):
			add("template", msg)
		case strings.HasPrefix(p, "#/config"):
			add("config", msg)
		case p == "#/locale":
			add("locale", msg)
		case strings.HasPrefix(p, "#/embed"):
			add("embed", msg)
		default:
			add("form", msg)
		}
	}
	return out
}

// roomFlagGroups are the room's switches as the form shows them, set as cfg.
func roomFlagGroups(cfg models.RoomConfig) []admin.RoomFlagGroupView {
	flag := func(name, labelID string, on bool) admin.RoomFlagView {
		return admin.RoomFlagView{Name: name, Label: i18n.Msg(labelID), Checked: on}
	}
	return []admin.RoomFlagGroupView{
		{Legend: i18n.Msg("admin.room_new.group.documents"), Flags: []admin.RoomFlagView{
			flag("documents.rename", "admin.room_new.flag.documents_rename", cfg.Documents.Rename),
			flag("documents.edit", "admin.room_new.flag.documents_edit", cfg.Documents.Edit),
			flag("documents.advancedEdit", "admin.room_new.flag.documents_advanced_edit", cfg.Documents.AdvancedEdit),
			flag("documents.detectTags", "admin.room_new.flag.documents_detect_tags", cfg.Documents.DetectTags)}},
		{Legend: i18n.Msg("admin.room_new.group.participants"), Flags: []admin.RoomFlagView{
			flag("participants.add", "admin.room_new.flag.participants_add", cfg.Participants.Add),
			flag("participants.edit", "admin.room_new.flag.participants_edit", cfg.Participants.Edit),
			flag("participants.remove", "admin.room_new.flag.participants_remove", cfg.Participants.Remove)}},
		{Legend: i18n.Msg("admin.room_new.group.authentication"), Flags: []admin.RoomFlagView{
			flag("authentication.personalPassword", "admin.room_new.flag.personal_password", cfg.Authentication.PersonalPassword),
			flag("authentication.twoFactor", "admin.room_new.flag.two_factor", cfg.Authentication.TwoFactor)}},
		{Legend: i18n.Msg("admin.room_new.group.idv"), Flags: []admin.RoomFlagView{
			flag("idv.kba", "admin.room_new.flag.kba", cfg.IDV.KBA),
			flag("idv.credentialAnalysis", "admin.room_new.flag.credential_analysis", cfg.IDV.CredentialAnalysis)}},
		{Legend: i18n.Msg("admin.room_new.group.templates"), Flags: []admin.RoomFlagView{
			flag("templates.save", "admin.room_new.flag.templates_save", cfg.Templates.Save),
			flag("templates.apply", "admin.room_new.flag.templates_apply", cfg.Templates.Apply)}},
	}
}

// roomConfigFromForm reads the switches: a ticked box is on, any other off.
func roomConfigFromForm(form url.Values) models.RoomConfig {
	on := func(name string) bool { return form.Get(name) == "true" }
	return models.RoomConfig{
		IDV:            models.IDVConfig{KBA: on("idv.kba"), CredentialAnalysis: on("idv.credentialAnalysis")},
		Authentication: models.AuthenticationConfig{PersonalPassword: on("authentication.personalPassword"), TwoFactor: on("authentication.twoFactor")},
		Documents: models.DocumentsConfig{Rename: on("documents.rename"), Edit: on("documents.edit"),
			AdvancedEdit: on("documents.advancedEdit"), DetectTags: on("documents.detectTags")},
		Participants: models.ParticipantsConfig{Add: on("participants.add"), Edit: on("participants.edit"), Remove: on("participants.remove")},
		Templates:    models.TemplatesConfig{Save: on("templates.save"), Apply: on("templates.apply")},
	}
}
