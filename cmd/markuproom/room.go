package main

import (
	"context"
	"errors"
	"fmt"
	"net/mail"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/web/i18n"
)

// repeated is a flag given any number of times, in order.
type repeated []string

func (r *repeated) String() string     { return strings.Join(*r, ", ") }
func (r *repeated) Set(v string) error { *r = append(*r, v); return nil }

// roomCreate makes a Markup Room without the API: the same checks and
// model code as operation B, the FILEs uploaded with the API upload's
// checks and saved in the room's own transaction. Exit 2 for bad
// arguments, 1 (with the problems) for a refused room.
func (e *cliEnv) roomCreate(ctx context.Context, args []string) int {
	fs := e.newFlagSet("room create")
	orgFlag := fs.String("org", "", "organization id (required)")
	senderFlag := fs.String("sender", "", "the sender's user id in the organization (required)")
	templateID := fs.String("template", "", "start from this template of the organization")
	locale := fs.String("locale", "", "the room's language ("+strings.Join(i18n.Tags(), ", ")+"); else each visitor's browser's")
	embedOrigin := fs.String("embed-origin", "", "let this origin frame the room (https://host[:port]; one of the organization's allowed origins, org update --embed-origins)")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	var files, people repeated
	fs.Var(&files, "document", "a PDF FILE to upload into the room (repeatable)")
	fs.Var(&people, "participant", `a participant, "First Last <email>" (repeatable)`)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return 2
	}
	form, orgID, err := roomFormFromArgs(pos, *orgFlag, *senderFlag, *templateID, people)
	if err == nil {
		form.Locale, err = parseLocale(*locale)
	}
	form.EmbedOrigin = strings.TrimSpace(*embedOrigin)
	if err != nil {
		fmt.Fprintf(e.stderr, "markuproom room create: %v\n", err)
		return 2
	}
	for _, f := range files {
		if st, err := os.Stat(f); err != nil || !st.Mode().IsRegular() {
			fmt.Fprintf(e.stderr, "markuproom room create: --document %q is not a readable file\n", f)
			return 2
		}
	}
	a, err := e.openApp(ctx, e.quietLogger())
	if err != nil {
		return e.fail("room create", err)
	}
	defer a.close()
	created, err := a.createRoom(ctx, orgID, form, files)
	var ae *models.AuthError
	if errors.As(err, &ae) {
		fmt.Fprintf(e.stderr, "markuproom room create: --sender %s is not an active user of organization %d\n", form.SenderID, orgID)
		return 1
	}
	if err != nil {
		return e.fail("room create", err)
	}
	url := a.cfg.BaseURL + models.RoomURLPath(created.Token)
	r := created.Room
	if *asJSON {
		out := map[string]any{"id": r.ID, "url": url, "transactionId": r.TransactionID, "expiresAt": r.ExpiresAt.UTC().Format(time.RFC3339)}
		if r.EmbedOrigin != "" {
			out["embedOrigin"] = r.EmbedOrigin
		}
		e.printJSON(out)
	} else {
		fmt.Fprintf(e.stdout, "Created Markup Room %s (transaction %s) for organization %d, open until %s.", r.ID, r.TransactionID, orgID,
			r.ExpiresAt.UTC().Format("2 Jan 2006 15:04 MST"))
		if r.EmbedOrigin != "" {
			fmt.Fprintf(e.stdout, " %s may frame it (static/embed.js).", r.EmbedOrigin)
		}
		fmt.Fprintf(e.stdout, " Its URL is shown only once:\n%s\n", url)
	}
	return 0
}

// roomFormFromArgs reads the command's arguments into a room form; any
// mistake is a usage error.
func roomFormFromArgs(pos []string, org, sender, templateID string, people []string) (models.RoomForm, int64, error) {
	if len(pos) != 0 {
		return models.RoomForm{}, 0, fmt.Errorf("unexpected argument %q", pos[0])
	}
	orgID, err := parseID("--org", org)
	if err != nil {
		return models.RoomForm{}, 0, err
	}
	if _, err := parseID("--sender", sender); err != nil {
		return models.RoomForm{}, 0, err
	}
	form := models.RoomForm{SenderID: strings.TrimSpace(sender), Config: models.DefaultRoomConfig(), TemplateID: strings.TrimSpace(templateID)}
	for _, p := range people {
		rp, err := parseParticipant(p)
		if err != nil {
			return models.RoomForm{}, 0, err
		}
		form.Participants = append(form.Participants, rp)
	}
	return form, orgID, nil
}

// parseLocale checks --locale like operation B's "locale" (one of the
// product's languages, docs/i18n.md), giving its canonical tag; "" for none.
func parseLocale(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", nil
	}
	l, ok := i18n.Lookup(s)
	if !ok {
		return "", fmt.Errorf("--locale %q is not a language of Markup Room; use one of: %s", s, strings.Join(i18n.Tags(), ", "))
	}
	return l.Tag, nil
}

// parseParticipant reads "First Last <email>": the last word of the name
// is the last name, the words before it the first name.
func parseParticipant(s string) (models.RoomParticipantInput, error) {
	addr, err := mail.ParseAddress(s)
	if err != nil || addr.Name == "" {
		return models.RoomParticipantInput{}, fmt.Errorf("--participant %q must read \"First Last <email>\"", s)
	}
	words := strings.Fields(addr.Name)
	if len(words) < 2 {
		return models.RoomParticipantInput{}, fmt.Errorf("--participant %q needs a first and a last name", s)
	}
	return models.RoomParticipantInput{FirstName: strings.Join(words[:len(words)-1], " "), LastName: words[len(words)-1], Email: addr.Address}, nil
}

// createRoom stages each file with the API upload's checks, then creates
// the room with them (models.Store.CreateRoomWithUploads).
func (a *app) createRoom(ctx context.Context, orgID int64, form models.RoomForm, files []string) (*models.CreatedRoom, error) {
	in, err := form.Input()
	if err != nil {
		return nil, err
	}
	var uploads []models.RoomUpload
	defer func() {
		for _, u := range uploads {
			_ = u.File.Close()
		}
	}()
	for i, name := range files {
		staged, err := a.stageFile(ctx, name)
		var ve *models.ValidationError
		if errors.As(err, &ve) {
			for j := range ve.Errors {
				ve.Errors[j].Pointer = fmt.Sprintf("document %d (%s)", i+1, name)
			}
			return nil, ve
		}
		if err != nil {
			return nil, err
		}
		uploads = append(uploads, models.RoomUpload{File: staged})
	}
	return a.store.CreateRoomWithUploads(ctx, models.OperatorRoomActor(orgID), in, uploads)
}

// stageFile reads one PDF under the upload limit.
func (a *app) stageFile(ctx context.Context, name string) (*models.StagedUpload, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return a.store.StageUpload(ctx, f, a.cfg.MaxUploadBytes, filepath.Base(name))
}
