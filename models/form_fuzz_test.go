package models_test

import (
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/tagtype"
)

// The room's decoders of tags and participants (a posted form, a batch
// entry's JSON) fill the same typed drafts as the API's JSON and go
// through the same validator. These targets drive each decoder with any
// input: nothing panics, a refusal is a ValidationError pointing at a
// field, an accepted value keeps every rule, and the same value sent the
// other way (form → batch, form → API) is read back the same.

// FuzzTagForm decodes and checks any posted tag form as a room does.
func FuzzTagForm(f *testing.F) {
	f.Add("SIGNATURETEMPLATE", "p_1", "2", "72", "100", "144", "36", "true", "", "", "")
	f.Add("DATETEMPLATE", "", "1", "10.5", "-5", "96", "20", "off", "MM/DD/YYYY", "S", "12")
	f.Add("", "x", "2.5", "left", "1e999", "0", "-1", "yes", "YY", "", "0x10")
	f.Add("STAMP", strings.Repeat("s", 300), " 3 ", "NaN", "1e3", "1_0", "Inf", "on", "", strings.Repeat("f", 200), "1000")
	f.Fuzz(func(t *testing.T, typ, signer, page, x, y, width, height, required, dateFormat, stateFormat, fontSize string) {
		form := models.RoomTagForm{Type: typ, SignerID: signer, Page: page, X: x, Y: y, Width: width, Height: height,
			Required: required, DateFormat: dateFormat, StateFormat: stateFormat, FontSize: fontSize}
		tag, err := models.CheckTagForm(form)
		if err != nil {
			checkValidationError(t, err)
			checkPointers(t, err, "#")
			return
		}
		checkRoomTag(t, tag)
		if string(tag.CustomData) != "{}" {
			t.Fatalf("a form's tag has customData %s", tag.CustomData)
		}
		// The same tag as a batch entry is read back the same.
		entry := map[string]any{"documentPosition": 0, "type": tag.Type, "signerId": tag.SignerID, "page": tag.Page,
			"x": tag.X, "y": tag.Y, "width": tag.Width, "height": tag.Height}
		for key, v := range map[string]any{"required": tag.Required, "dateFormat": tag.DateFormat, "stateFormat": tag.StateFormat, "fontSize": tag.FontSize} {
			if !reflect.ValueOf(v).IsNil() {
				entry[key] = v
			}
		}
		b, err := models.ParseTagBatch(marshal(t, map[string]any{"create": []any{entry}}))
		if err != nil {
			t.Fatalf("the form's tag %+v as a batch entry: %v", tag, err)
		}
		again, err := models.CheckTagDraft("#/create/0", b.Create[0].Form)
		if err != nil {
			t.Fatalf("the form's tag %+v refused as a batch entry: %v", tag, err)
		}
		if !reflect.DeepEqual(again, tag) {
			t.Fatalf("form and batch differ:\n form  %+v\n batch %+v", tag, again)
		}
	})
}

// FuzzParseTagBatch decodes any batch body and checks each of its tags as
// a room does before it looks at the room.
func FuzzParseTagBatch(f *testing.F) {
	for _, s := range []string{
		`{"create":[{"documentPosition":0,"type":"SIGNATURETEMPLATE","signerId":"p_1","page":2,"x":72,"y":100,"width":144,"height":36,"required":true}]}`,
		`{"update":[{"id":"t_1","type":"DATETEMPLATE","page":1,"x":1e3,"y":-5,"width":1,"height":0.5,"dateFormat":"MM/DD/YYYY","fontSize":12}],"delete":["t_2"]}`,
		`{"create":[{"documentPosition":0,"type":"","page":2.5,"x":1e999,"y":"1","width":0,"height":-1,"required":"yes","suggestion":"k"}]}`,
		`{"delete":["t_1","t_1"]}`, `{}`, `[]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		b, err := models.ParseTagBatch(body)
		if err != nil {
			checkValidationError(t, err)
			return
		}
		check := func(base string, d models.TagDraft) {
			tag, err := models.CheckTagDraft(base, d)
			if err != nil {
				checkValidationError(t, err)
				checkPointers(t, err, base)
				return
			}
			checkRoomTag(t, tag)
		}
		for i, c := range b.Create {
			check("#/create/"+strconv.Itoa(i), c.Form)
		}
		for i, u := range b.Update {
			check("#/update/"+strconv.Itoa(i), u.Form)
		}
	})
}

// FuzzParticipantForm decodes and checks any posted participant form as a
// room with every flag on does.
func FuzzParticipantForm(f *testing.F) {
	f.Add("Pat", "Q", "Buyer", " pat@example.com ", "+1 555 0100", "personalPassword", "sms", "Q?", "secret", true, false)
	f.Add("Ann", "", "Lee", "ann@example.com", "", "", "", "", "", false, false)
	f.Add(" ", "\t", "Lee\n", "not-an-email", "abc", "retina", "pigeon", "", strings.Repeat("p", 200), false, true)
	f.Fuzz(func(t *testing.T, first, middle, last, email, phone, auth, contact, question, password string, kba, cred bool) {
		form := models.ParticipantForm{FirstName: first, MiddleName: middle, LastName: last, Email: email, Phone: phone,
			AuthenticationType: auth, TwoFactorContact: contact, PersonalPasswordQuestion: question, PersonalPassword: password,
			KBARequired: kba, CredAnalysisRequired: cred}
		in, err := models.CheckParticipantForm("p_1", form)
		if err != nil {
			checkValidationError(t, err)
			checkPointers(t, err, "#")
			return
		}
		checkText(t, "participant", in.FirstName+in.LastName)
		if in.ID != "p_1" || !models.ValidEmail(in.Email) || strings.TrimSpace(in.Email) != in.Email ||
			strings.TrimSpace(in.FirstName) == "" || strings.TrimSpace(in.LastName) == "" ||
			!slices.Contains(models.AuthenticationTypes(), in.AuthenticationType) || !slices.Contains(models.TwoFactorContacts(), in.TwoFactorContact) ||
			(in.PersonalPassword != nil && in.AuthenticationType != models.AuthPersonalPassword) ||
			in.KBARequired == nil || *in.KBARequired != kba || in.CredAnalysisRequired == nil || *in.CredAnalysisRequired != cred {
			t.Fatalf("accepted participant %+v", in)
		}
		// The same participant in an API request is read back the same.
		p := map[string]any{"id": in.ID, "email": in.Email, "firstName": in.FirstName, "lastName": in.LastName,
			"authenticationType": in.AuthenticationType, "twoFactorContact": in.TwoFactorContact,
			"kbaRequired": *in.KBARequired, "credAnalysisRequired": *in.CredAnalysisRequired}
		for key, v := range map[string]*string{"middleName": in.MiddleName, "phone": in.Phone,
			"personalPasswordQuestion": in.PersonalPasswordQuestion, "personalPassword": in.PersonalPassword} {
			if v != nil {
				p[key] = *v
			}
		}
		tx, err := models.ParseTransactionInput(marshal(t, map[string]any{"status": "draft", "referenceId": "r",
			"documents": []any{}, "participants": []any{p}}))
		if err != nil {
			t.Fatalf("the form's participant %+v refused by the API: %v", in, err)
		}
		if !reflect.DeepEqual(tx.Participants[0], in) {
			t.Fatalf("form and API differ:\n form %+v\n API  %+v", in, tx.Participants[0])
		}
	})
}

// checkRoomTag fails when an accepted room tag breaks a rule of the Tag schema.
func checkRoomTag(t *testing.T, tag models.TagInput) {
	t.Helper()
	finite := func(f float64, lo, hi float64) bool { return !math.IsNaN(f) && f >= lo && f <= hi }
	if !slices.Contains(tagtype.Codes(), tag.Type) || len(tag.SignerID) > models.MaxShortTextLength ||
		!finite(tag.X, -models.MaxCoordinate, models.MaxCoordinate) || !finite(tag.Y, -models.MaxCoordinate, models.MaxCoordinate) ||
		!finite(tag.Width, math.SmallestNonzeroFloat64, models.MaxCoordinate) || !finite(tag.Height, math.SmallestNonzeroFloat64, models.MaxCoordinate) ||
		tag.Page < 1 || tag.Page > 100000 || (tag.FontSize != nil && !finite(*tag.FontSize, 1, models.MaxTagFontSize)) ||
		(tag.DateFormat != nil && !slices.Contains(models.DateFormats(), *tag.DateFormat)) {
		t.Fatalf("accepted tag %+v", tag)
	}
	if tag.StateFormat != nil {
		checkText(t, "stateFormat", *tag.StateFormat)
	}
}

// checkPointers fails when a problem of a refused tag or participant does
// not point at one of its fields (below base).
func checkPointers(t *testing.T, err error, base string) {
	t.Helper()
	for _, fe := range err.(*models.ValidationError).Errors {
		if rest, ok := strings.CutPrefix(fe.Pointer, base+"/"); !ok || rest == "" || strings.Contains(rest, "/") {
			t.Fatalf("problem %+v does not point at a field below %s", fe, base)
		}
	}
}
