package models

import (
	"strings"

	"github.com/markuproom/markuproom/models/passwordhash"
	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/xfdf"
)

// signerColors colour tags by participant position, in the editor and in XFDF.
func signerColors() []string {
	return []string{"#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#332288", "#999933", "#AA4499", "#117733", "#DDCC77"}
}

// SignerColor is the colour of the participant at position i.
func SignerColor(i int) string {
	c := signerColors()
	if i < 0 {
		return c[0]
	}
	return c[i%len(c)]
}

// checkSettings reports, as one 400 error, the problems that need the store's configuration.
func (s *Store) checkSettings(in *TransactionInput) error {
	var bad Problems
	p := &bad
	if in.EVault != nil && *in.EVault != s.evault {
		p.Add("#/evault", "invalid_enum", "problem.tx.evault", "value", Quoted(truncateForDetail(*in.EVault)), "evault", Quoted(s.evault))
	}
	for i, v := range in.SendFinalEnoteTo {
		if v != s.evault {
			p.Add(pointer("#/sendFinalEnoteTo", i), "invalid_enum", "problem.tx.evault", "value", Quoted(truncateForDetail(v)), "evault", Quoted(s.evault))
		}
	}
	subject := in.InviteEmailSubject
	for i, pi := range in.Participants {
		if pi.InviteEmailSubject == nil {
			continue
		}
		if subject == nil {
			subject = pi.InviteEmailSubject
			continue
		}
		if *pi.InviteEmailSubject != *subject {
			p.Add(pointer(pointer("#/participants", i), "inviteEmailSubject"), "conflicting_value", "problem.tx.one_subject")
		}
	}
	return bad.Err(KindInvalid, "problem.summary.tx_invalid")
}

// checkReferences reports 422-class problems: references between the parts of
// the request and to the organization's uploaded documents.
func checkReferences(p *Problems, in *TransactionInput, docs map[string]*Document) {
	signers := make(map[string]bool, len(in.Participants))
	for i, pi := range in.Participants {
		ptr := pointer("#/participants", i)
		if signers[pi.ID] {
			p.Add(pointer(ptr, "id"), "duplicate_participant_id", "problem.tx.duplicate_participant_id", "id", Quoted(truncateForDetail(pi.ID)))
		}
		signers[pi.ID] = true
		if pi.AuthenticationType == AuthTwoFactor && pi.TwoFactorContact == ContactSMS && (pi.Phone == nil || *pi.Phone == "") {
			p.Add(pointer(ptr, "phone"), "phone_required", "problem.tx.phone_required")
		}
	}
	for i, d := range in.Documents {
		ptr := pointer("#/documents", i)
		doc := docs[d.GCSRefID]
		if doc == nil {
			p.Add(pointer(ptr, "gcsRefId"), "unknown_document", "problem.tx.unknown_reference", "reference", Quoted(truncateForDetail(d.GCSRefID)))
		}
		if d.ID != nil {
			byID := docs[*d.ID]
			switch {
			case byID == nil:
				p.Add(pointer(ptr, "id"), "unknown_document", "problem.tx.unknown_upload_id", "id", Quoted(truncateForDetail(*d.ID)))
			case doc != nil && byID.ID != doc.ID:
				p.Add(pointer(ptr, "id"), "document_mismatch", "problem.tx.document_mismatch")
			}
		}
		if doc == nil {
			continue
		}
		if d.Pages != nil && *d.Pages != doc.PageCount {
			p.Add(pointer(ptr, "pages"), "page_count_mismatch", "problem.doc.page_count_mismatch", "pages", doc.PageCount, "sent", *d.Pages)
		}
		for j, t := range d.Tags {
			tptr := pointer(pointer(ptr, "tags"), j)
			if !signers[t.SignerID] && !(t.SignerID == "" && in.AllowUnassignedTags) {
				p.Add(pointer(tptr, "signerId"), "unknown_signer", "problem.tx.unknown_signer", "id", Quoted(truncateForDetail(t.SignerID)))
			}
			if t.Page > doc.PageCount {
				p.Add(pointer(tptr, "page"), "page_out_of_range", "problem.doc.page_out_of_range", "pages", doc.PageCount, "page", t.Page)
				continue
			}
			box := doc.Pages[t.Page-1].CropBox
			if !box.Contains(t.X, t.Y, t.Width, t.Height) {
				p.AddMessage(tptr, "outside_page", outsidePage(t.X, t.Y, t.Width, t.Height, t.Page, box))
			}
		}
	}
}

// DocumentRefs lists the upload references a request names (gcsRefIds and ids).
func DocumentRefs(in *TransactionInput) []string {
	refs := make([]string, 0, 2*len(in.Documents))
	for _, d := range in.Documents {
		refs = append(refs, d.GCSRefID)
		if d.ID != nil {
			refs = append(refs, *d.ID)
		}
	}
	return refs
}

// buildTransaction turns a checked request into the rows to store. Personal
// passwords are hashed here, outside any database transaction.
func (s *Store) buildTransaction(id string, orgID int64, in *TransactionInput, docs map[string]*Document) (*Transaction, error) {
	t := &Transaction{
		ID:                  id,
		OrganizationID:      orgID,
		ReferenceID:         in.ReferenceID,
		Status:              in.Status,
		SigningOrder:        in.SigningOrder,
		PersonalizedMessage: in.PersonalizedMessage,
		HasNotify:           in.HasNotify,
		NotifyEmail:         in.NotifyEmail,
		EVault:              s.evault,
		SendFinalEnoteTo:    StringList(in.SendFinalEnoteTo),
	}
	if t.SendFinalEnoteTo == nil {
		t.SendFinalEnoteTo = StringList{s.evault}
	}
	t.InviteEmailSubject = inviteSubject(in)

	colorOf := make(map[string]string, len(in.Participants))
	t.Participants = make([]Participant, len(in.Participants))
	for i, pi := range in.Participants {
		colorOf[pi.ID] = SignerColor(i)
		row, err := participantRow(id, i, pi, in.SigningOrder != nil && *in.SigningOrder)
		if err != nil {
			return nil, err
		}
		t.Participants[i] = row
	}
	t.Documents = make([]TransactionDocument, len(in.Documents))
	for i, d := range in.Documents {
		doc := docs[d.GCSRefID]
		td := TransactionDocument{
			TransactionID: id, Position: i, DocumentID: doc.ID, GCSRefID: doc.ObjectKey, Title: d.Title,
			Description: d.Description, SessionType: d.SessionType, Type: d.Type, Order: d.Order,
			Pages: doc.PageCount, ReadOnly: d.ReadOnly, Visible: d.Visible,
			Tags: make([]Tag, len(d.Tags)),
		}
		for j, ti := range d.Tags {
			tagID := ti.ID
			if tagID == "" {
				var err error
				if tagID, err = NewTagID(); err != nil {
					return nil, err
				}
			}
			td.Tags[j] = Tag{
				TransactionID: id, DocumentPosition: i, Position: j, TagID: tagID, Type: ti.Type,
				X: ti.X, Y: ti.Y, Width: ti.Width, Height: ti.Height, SignerID: ti.SignerID,
				CustomData: ti.CustomData, Page: ti.Page, Required: ti.Required,
				StateFormat: ti.StateFormat, DateFormat: ti.DateFormat, FontSize: ti.FontSize,
			}
		}
		var callerXFDF []byte
		if d.XFDF != nil {
			callerXFDF = []byte(*d.XFDF)
		}
		merged, err := xfdf.MergeText(callerXFDF, tagsToXFDF(id, i, td.Tags, colorOf))
		if err != nil {
			return nil, Invalid(pointer(pointer("#/documents", i), "xfdf"), "invalid_xfdf", "problem.tx.xfdf_merge", "reason", err.Error())
		}
		td.XFDF = merged
		t.Documents[i] = td
		t.TagCount += len(td.Tags)
	}
	t.DocumentCount, t.ParticipantCount = len(t.Documents), len(t.Participants)
	return t, nil
}

func participantRow(txID string, i int, pi ParticipantInput, signingOrder bool) (Participant, error) {
	row := Participant{
		TransactionID: txID, Position: i, ParticipantID: pi.ID, Order: pi.Order, Email: pi.Email,
		FirstName: pi.FirstName, MiddleName: pi.MiddleName, LastName: pi.LastName,
		Address1: pi.Address1, Address2: pi.Address2, Country: pi.Country, City: pi.City, State: pi.State, Zip: pi.Zip,
		Phone: pi.Phone, KBARequired: pi.KBARequired, CredAnalysisRequired: pi.CredAnalysisRequired,
		ExternalID: pi.ExternalID, AuthenticationType: pi.AuthenticationType, TwoFactorContact: pi.TwoFactorContact,
		PersonalPasswordQuestion: pi.PersonalPasswordQuestion, Locale: pi.Locale,
	}
	if signingOrder && row.Order == nil {
		n := i + 1
		row.Order = &n
	}
	if pi.PersonalPassword != nil {
		h, err := passwordhash.Hash(*pi.PersonalPassword)
		if err != nil {
			return row, err
		}
		row.PersonalPasswordHash = &h
	} else if pi.keptPasswordHash != nil {
		row.PersonalPasswordHash = pi.keptPasswordHash
	}
	return row, nil
}

// orEmpty is the stored JSON, or {} when nothing is stored.
func (r RawJSON) orEmpty() RawJSON {
	if len(r) == 0 {
		return RawJSON("{}")
	}
	return r
}

// inviteSubject is the invitation subject a transaction stores: the one
// its input gives (at the top or on a participant), or nil for "the
// default", which each invitation and page says in its reader's language
// (mail.invitation.subject). The API takes its own English default, sent
// back, as none before it gets here (handlers, parseTransactionInput).
func inviteSubject(in *TransactionInput) *string {
	subject := in.InviteEmailSubject
	for _, pi := range in.Participants {
		if subject == nil {
			subject = pi.InviteEmailSubject
		}
	}
	if subject == nil || strings.TrimSpace(*subject) == "" {
		return nil
	}
	s := *subject
	return &s
}

// outsidePage is the message of a tag that does not lie inside its page's
// crop box; the coordinates are written as the request wrote them (fmtNum).
func outsidePage(x, y, w, h float64, page int, box pdf.Box) Message {
	return Msg("problem.doc.outside_page", "x", fmtNum(x), "y", fmtNum(y), "width", fmtNum(w), "height", fmtNum(h), "page", page,
		"llx", fmtNum(box.LLX), "lly", fmtNum(box.LLY), "urx", fmtNum(box.URX), "ury", fmtNum(box.URY))
}
