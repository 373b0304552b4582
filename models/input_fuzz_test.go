package models_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/tagtype"
	"github.com/markuproom/markuproom/models/xfdf"
)

// The committed seeds are in testdata/fuzz/<FuzzName>/ (go test replays them;
// `make fuzz` explores from them). These are added in code as well so that
// a fresh checkout's run starts from valid bodies.
const (
	seedTransaction = `{"status":"draft","referenceId":"ref-1","signingOrder":true,"personalizedMessage":"Hi",` +
		`"inviteEmailSubject":"Please sign","notifyParticipants":{"email":false},"evault":"default","sendFinalEnoteTo":["a@example.com"],` +
		`"documents":[{"id":"d1","gcsRefId":"orgs/1/documents/d1.pdf","title":"Deed","description":"x","xfdf":"",` +
		`"sessionType":"esign","type":"acknowledgment","order":1,"pages":3,"readOnly":false,"visible":true,` +
		`"tags":[{"type":"SIGNATURETEMPLATE","x":36.5,"y":-2,"width":60,"height":20,"signerId":"p1",` +
		`"customData":{"label":"L","page":2,"fontSize":12},"required":true,"dateFormat":"MM/DD/YYYY","stateFormat":"S"}]}],` +
		`"participants":[{"id":"p1","order":1,"email":"pat@example.com","firstName":"Pat","middleName":"Q","lastName":"Buyer",` +
		`"address1":"1 Main St","phone":"+1 (555) 010-0000","kbaRequired":false,"authenticationType":"none","twoFactorContact":"email",` +
		`"personalPassword":"pw","inviteEmailSubject":"S"}]}`
	seedRoom = `{"senderId":7,"referenceId":"r","documents":["http://localhost:8080/api/v1/documents/x/content"],` +
		`"participants":[{"firstName":"Pat","lastName":"Buyer","email":"pat@example.com"}],` +
		`"config":{"idv":{"kba":false},"participants":{"remove":false}}}`
)

// FuzzParseTransactionInput decodes any body as an "Update eSignature
// transaction" request: it never panics; a refusal is a ValidationError with
// pointers and codes; an accepted input satisfies every rule the validator
// promises, and re-encoding it and decoding again gives the same input.
func FuzzParseTransactionInput(f *testing.F) {
	for _, s := range []string{seedTransaction, `{}`, `[]`, `{"status":"draft","documents":[],"participants":[]}`,
		`{"status":"draft","referenceId":"x","documents":[{"tags":[{"x":1e999,"customData":{"page":1},"page":2}]}],"participants":[{}]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		in, err := models.ParseTransactionInput(body)
		if err != nil {
			checkValidationError(t, err)
			return
		}
		checkTransactionInput(t, in)
		again, err := models.ParseTransactionInput(encodeTransactionInput(t, in))
		if err != nil {
			t.Fatalf("re-encoded input refused: %v", err)
		}
		if !reflect.DeepEqual(normalizeCustomData(t, again), normalizeCustomData(t, in)) {
			t.Fatalf("round trip changed the input:\n got %+v\nwant %+v", again, in)
		}
	})
}

// FuzzParseRoomInput does the same for the "Create a Markup Room" request.
func FuzzParseRoomInput(f *testing.F) {
	for _, s := range []string{seedRoom, `{"senderId":"1"}`, `{"senderId":1e3,"config":{}}`, `{"senderId":" 2 ","participants":[{"email":"A@x.com"},{"email":"a@X.com"}]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		in, err := models.ParseRoomInput(body)
		if err != nil {
			checkValidationError(t, err)
			return
		}
		if in.SenderID == "" || strings.TrimSpace(in.SenderID) != in.SenderID {
			t.Fatalf("accepted senderId %q", in.SenderID)
		}
		seen := map[string]bool{}
		for _, p := range in.Participants {
			checkText(t, "participant name", p.FirstName+p.LastName)
			if !models.ValidEmail(p.Email) || seen[models.EmailKey(p.Email)] {
				t.Fatalf("accepted e-mail %q (twice: %v)", p.Email, seen[models.EmailKey(p.Email)])
			}
			seen[models.EmailKey(p.Email)] = true
		}
		for _, d := range in.Documents {
			if strings.TrimSpace(d) == "" || len(d) > 2048 {
				t.Fatalf("accepted document %q", d)
			}
		}
		participants := make([]map[string]string, 0, len(in.Participants))
		for _, p := range in.Participants {
			participants = append(participants, map[string]string{"firstName": p.FirstName, "lastName": p.LastName, "email": p.Email})
		}
		out := map[string]any{"senderId": in.SenderID, "config": in.Config, "documents": in.Documents, "participants": participants}
		if in.ReferenceID != nil {
			out["referenceId"] = *in.ReferenceID
		}
		again, err := models.ParseRoomInput(marshal(t, out))
		if err != nil {
			t.Fatalf("re-encoded input refused: %v", err)
		}
		if !reflect.DeepEqual(again, in) {
			t.Fatalf("round trip changed the input:\n got %+v\nwant %+v", again, in)
		}
	})
}

func checkValidationError(t *testing.T, err error) {
	t.Helper()
	var ve *models.ValidationError
	if !errors.As(err, &ve) || len(ve.Errors) == 0 {
		t.Fatalf("refusal is not a ValidationError with problems: %T %v", err, err)
	}
	for _, fe := range ve.Errors {
		if !strings.HasPrefix(fe.Pointer, "#") || fe.Code == "" || (fe.Detail == "" && fe.Message.IsZero()) {
			t.Fatalf("malformed problem %+v", fe)
		}
	}
	if _, err := json.Marshal(ve.Errors); err != nil {
		t.Fatalf("problems do not encode: %v", err)
	}
}

// checkText fails when s could not be stored as text (PostgreSQL refuses NUL and invalid UTF-8).
func checkText(t *testing.T, what, s string) {
	t.Helper()
	if !utf8.ValidString(s) || strings.IndexByte(s, 0) >= 0 {
		t.Fatalf("accepted %s %q", what, s)
	}
}

func checkTransactionInput(t *testing.T, in *models.TransactionInput) {
	t.Helper()
	if !slices.Contains(models.TransactionStatuses(), in.Status) || strings.TrimSpace(in.ReferenceID) == "" {
		t.Fatalf("accepted status %q, referenceId %q", in.Status, in.ReferenceID)
	}
	checkText(t, "referenceId", in.ReferenceID)
	if in.InviteEmailSubject != nil && strings.ContainsAny(*in.InviteEmailSubject, "\r\n") {
		t.Fatalf("accepted a subject with a line break: %q", *in.InviteEmailSubject)
	}
	if len(in.Documents) > models.MaxDocuments || len(in.Participants) > models.MaxParticipants {
		t.Fatalf("accepted %d documents, %d participants", len(in.Documents), len(in.Participants))
	}
	finite := func(f float64, lo, hi float64) bool { return !math.IsNaN(f) && f >= lo && f <= hi }
	for _, d := range in.Documents {
		checkText(t, "title", d.Title)
		if strings.TrimSpace(d.Title) == "" || strings.TrimSpace(d.GCSRefID) == "" ||
			!slices.Contains(models.SessionTypes(), d.SessionType) || !slices.Contains(models.DocumentTypes(), d.Type) {
			t.Fatalf("accepted document %+v", d)
		}
		if d.XFDF != nil && strings.TrimSpace(*d.XFDF) != "" && xfdf.Validate([]byte(*d.XFDF)) != nil {
			t.Fatalf("accepted malformed XFDF %q", *d.XFDF)
		}
		for _, tag := range d.Tags {
			if !slices.Contains(tagtype.Codes(), tag.Type) || strings.TrimSpace(tag.SignerID) == "" ||
				!finite(tag.X, -models.MaxCoordinate, models.MaxCoordinate) || !finite(tag.Y, -models.MaxCoordinate, models.MaxCoordinate) ||
				!finite(tag.Width, math.SmallestNonzeroFloat64, models.MaxCoordinate) || !finite(tag.Height, math.SmallestNonzeroFloat64, models.MaxCoordinate) ||
				tag.Page < 1 || tag.Page > 100000 || (tag.FontSize != nil && !finite(*tag.FontSize, 1, models.MaxTagFontSize)) {
				t.Fatalf("accepted tag %+v", tag)
			}
			var cd map[string]json.RawMessage
			if err := json.Unmarshal(tag.CustomData, &cd); err != nil {
				t.Fatalf("customData %q is not an object: %v", tag.CustomData, err)
			}
			for _, lifted := range []string{"page", "required", "stateFormat", "dateFormat", "fontSize"} {
				if _, ok := cd[lifted]; ok {
					t.Fatalf("customData %s kept the lifted field %q", tag.CustomData, lifted)
				}
			}
		}
	}
	for _, p := range in.Participants {
		checkText(t, "participant", p.ID+p.FirstName+p.LastName)
		if !models.ValidEmail(p.Email) || !slices.Contains(models.AuthenticationTypes(), p.AuthenticationType) ||
			!slices.Contains(models.TwoFactorContacts(), p.TwoFactorContact) {
			t.Fatalf("accepted participant %+v", p)
		}
	}
}

func marshal(t *testing.T, v any) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatalf("encode %+v: %v", v, err)
	}
	return b.Bytes()
}

// encodeTransactionInput writes in back as a request body (the API's field names).
func encodeTransactionInput(t *testing.T, in *models.TransactionInput) []byte {
	t.Helper()
	type obj = map[string]any
	put := func(o obj, key string, v any) {
		if rv := reflect.ValueOf(v); rv.Kind() == reflect.Pointer && rv.IsNil() {
			return
		}
		o[key] = v
	}
	body := obj{"status": in.Status, "referenceId": in.ReferenceID}
	put(body, "signingOrder", in.SigningOrder)
	put(body, "personalizedMessage", in.PersonalizedMessage)
	put(body, "inviteEmailSubject", in.InviteEmailSubject)
	put(body, "evault", in.EVault)
	put(body, "id", in.ID)
	if in.HasNotify {
		n := obj{}
		put(n, "email", in.NotifyEmail)
		body["notifyParticipants"] = n
	}
	if in.SendFinalEnoteTo != nil {
		body["sendFinalEnoteTo"] = in.SendFinalEnoteTo
	}
	docs := []obj{}
	for _, d := range in.Documents {
		o := obj{"gcsRefId": d.GCSRefID, "title": d.Title, "sessionType": d.SessionType, "type": d.Type}
		put(o, "id", d.ID)
		put(o, "description", d.Description)
		put(o, "xfdf", d.XFDF)
		put(o, "order", d.Order)
		put(o, "pages", d.Pages)
		put(o, "readOnly", d.ReadOnly)
		put(o, "visible", d.Visible)
		tags := []obj{}
		for _, tag := range d.Tags {
			to := obj{"type": tag.Type, "x": tag.X, "y": tag.Y, "width": tag.Width, "height": tag.Height,
				"signerId": tag.SignerID, "customData": json.RawMessage(tag.CustomData), "page": tag.Page}
			put(to, "required", tag.Required)
			put(to, "stateFormat", tag.StateFormat)
			put(to, "dateFormat", tag.DateFormat)
			put(to, "fontSize", tag.FontSize)
			tags = append(tags, to)
		}
		o["tags"] = tags
		docs = append(docs, o)
	}
	body["documents"] = docs
	parts := []obj{}
	for _, p := range in.Participants {
		o := obj{"id": p.ID, "email": p.Email, "firstName": p.FirstName, "lastName": p.LastName,
			"authenticationType": p.AuthenticationType, "twoFactorContact": p.TwoFactorContact}
		for key, v := range map[string]any{"order": p.Order, "middleName": p.MiddleName, "address1": p.Address1, "address2": p.Address2,
			"country": p.Country, "city": p.City, "state": p.State, "zip": p.Zip, "phone": p.Phone, "kbaRequired": p.KBARequired,
			"credAnalysisRequired": p.CredAnalysisRequired, "externalId": p.ExternalID, "personalPasswordQuestion": p.PersonalPasswordQuestion,
			"personalPassword": p.PersonalPassword, "inviteEmailSubject": p.InviteEmailSubject} {
			put(o, key, v)
		}
		parts = append(parts, o)
	}
	body["participants"] = parts
	return marshal(t, body)
}

// normalizeCustomData returns a copy of in whose customData bytes are
// compacted: re-encoding keeps members and their order, not whitespace.
func normalizeCustomData(t *testing.T, in *models.TransactionInput) *models.TransactionInput {
	t.Helper()
	out := *in
	out.Documents = slices.Clone(in.Documents)
	for i := range out.Documents {
		out.Documents[i].Tags = slices.Clone(in.Documents[i].Tags)
		for j := range out.Documents[i].Tags {
			var b bytes.Buffer
			if err := json.Compact(&b, out.Documents[i].Tags[j].CustomData); err != nil {
				t.Fatalf("customData %q: %v", out.Documents[i].Tags[j].CustomData, err)
			}
			out.Documents[i].Tags[j].CustomData = b.Bytes()
		}
	}
	return &out
}
