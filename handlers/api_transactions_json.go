package handlers

import (
	"strconv"
	"time"

	"github.com/markuproom/markuproom/models"
)

// transactionJSON is the OpenAPI document's Transaction schema: the replaced
// transaction's fields plus id, status, referenceId, version and timestamps.
type transactionJSON struct {
	ID                    string               `json:"id"`
	Status                string               `json:"status"`
	ReferenceID           string               `json:"referenceId"`
	Version               int                  `json:"version"`
	CreatedAt             time.Time            `json:"createdAt"`
	UpdatedAt             time.Time            `json:"updatedAt"`
	SigningOrder          *bool                `json:"signingOrder,omitempty"`
	PersonalizedMessage   *string              `json:"personalizedMessage,omitempty"`
	InviteEmailSubject    *string              `json:"inviteEmailSubject,omitempty"`
	NotifyParticipants    *notifyJSON          `json:"notifyParticipants,omitempty"`
	TaggingOrganizationID string               `json:"taggingOrganizationId"`
	EVault                string               `json:"evault"`
	SendFinalEnoteTo      []string             `json:"sendFinalEnoteTo"`
	Documents             []transactionDocJSON `json:"documents"`
	Participants          []participantJSON    `json:"participants"`
}

type notifyJSON struct {
	Email *bool `json:"email,omitempty"`
}

type transactionDocJSON struct {
	ID          string    `json:"id"`
	Title       string    `json:"title"`
	Description *string   `json:"description,omitempty"`
	XFDF        string    `json:"xfdf"`
	GCSRefID    string    `json:"gcsRefId"`
	SessionType string    `json:"sessionType"`
	Type        string    `json:"type"`
	Order       *int      `json:"order,omitempty"`
	Pages       int       `json:"pages"`
	ReadOnly    *bool     `json:"readOnly,omitempty"`
	Visible     *bool     `json:"visible,omitempty"`
	Tags        []tagJSON `json:"tags"`
}

type tagJSON struct {
	Type        string         `json:"type"`
	X           float64        `json:"x"`
	Y           float64        `json:"y"`
	Width       float64        `json:"width"`
	Height      float64        `json:"height"`
	SignerID    string         `json:"signerId"`
	CustomData  models.RawJSON `json:"customData"`
	Page        int            `json:"page"`
	Required    *bool          `json:"required,omitempty"`
	StateFormat *string        `json:"stateFormat,omitempty"`
	DateFormat  *string        `json:"dateFormat,omitempty"`
	FontSize    *float64       `json:"fontSize,omitempty"`
}

type participantJSON struct {
	ID                       string  `json:"id"`
	Order                    *int    `json:"order,omitempty"`
	Email                    string  `json:"email"`
	FirstName                string  `json:"firstName"`
	MiddleName               *string `json:"middleName,omitempty"`
	LastName                 string  `json:"lastName"`
	Address1                 *string `json:"address1,omitempty"`
	Address2                 *string `json:"address2,omitempty"`
	Country                  *string `json:"country,omitempty"`
	City                     *string `json:"city,omitempty"`
	State                    *string `json:"state,omitempty"`
	Zip                      *string `json:"zip,omitempty"`
	Phone                    *string `json:"phone,omitempty"`
	KBARequired              *bool   `json:"kbaRequired,omitempty"`
	CredAnalysisRequired     *bool   `json:"credAnalysisRequired,omitempty"`
	ExternalID               *string `json:"externalId,omitempty"`
	AuthenticationType       string  `json:"authenticationType"`
	TwoFactorContact         string  `json:"twoFactorContact"`
	PersonalPasswordQuestion *string `json:"personalPasswordQuestion,omitempty"`
	InviteEmailSubject       *string `json:"inviteEmailSubject,omitempty"`
	// Locale (an extension) is the language of the participant's invitation.
	Locale *string `json:"locale,omitempty"`
}

// transactionSummaryJSON is one item of a transaction list.
type transactionSummaryJSON struct {
	ID               string    `json:"id"`
	Status           string    `json:"status"`
	ReferenceID      string    `json:"referenceId"`
	Version          int       `json:"version"`
	DocumentCount    int       `json:"documentCount"`
	TagCount         int       `json:"tagCount"`
	ParticipantCount int       `json:"participantCount"`
	CreatedAt        time.Time `json:"createdAt"`
	UpdatedAt        time.Time `json:"updatedAt"`
}

func toTransactionJSON(t *models.Transaction) transactionJSON {
	out := transactionJSON{
		ID: t.ID, Status: t.Status, ReferenceID: t.ReferenceID, Version: t.Version,
		CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt, SigningOrder: t.SigningOrder,
		PersonalizedMessage: t.PersonalizedMessage, InviteEmailSubject: effectiveInviteSubject(t),
		TaggingOrganizationID: strconv.FormatInt(t.OrganizationID, 10),
		EVault:                t.EVault, SendFinalEnoteTo: t.SendFinalEnoteTo,
		Documents:    make([]transactionDocJSON, len(t.Documents)),
		Participants: make([]participantJSON, len(t.Participants)),
	}
	if out.SendFinalEnoteTo == nil {
		out.SendFinalEnoteTo = []string{}
	}
	if t.HasNotify {
		out.NotifyParticipants = &notifyJSON{Email: t.NotifyEmail}
	}
	for i, d := range t.Documents {
		dj := transactionDocJSON{
			ID: d.DocumentID, Title: d.Title, Description: d.Description, XFDF: d.XFDF, GCSRefID: d.GCSRefID,
			SessionType: d.SessionType, Type: d.Type, Order: d.Order, Pages: d.Pages, ReadOnly: d.ReadOnly,
			Visible: d.Visible, Tags: make([]tagJSON, len(d.Tags)),
		}
		for j, tag := range d.Tags {
			dj.Tags[j] = tagJSON{
				Type: tag.Type, X: tag.X, Y: tag.Y, Width: tag.Width, Height: tag.Height, SignerID: tag.SignerID,
				CustomData: tag.CustomData, Page: tag.Page, Required: tag.Required, StateFormat: tag.StateFormat,
				DateFormat: tag.DateFormat, FontSize: tag.FontSize,
			}
		}
		out.Documents[i] = dj
	}
	for i, p := range t.Participants {
		out.Participants[i] = participantJSON{
			ID: p.ParticipantID, Order: p.Order, Email: p.Email, FirstName: p.FirstName, MiddleName: p.MiddleName,
			LastName: p.LastName, Address1: p.Address1, Address2: p.Address2, Country: p.Country, City: p.City,
			State: p.State, Zip: p.Zip, Phone: p.Phone, KBARequired: p.KBARequired,
			CredAnalysisRequired: p.CredAnalysisRequired, ExternalID: p.ExternalID,
			AuthenticationType: p.AuthenticationType, TwoFactorContact: p.TwoFactorContact,
			PersonalPasswordQuestion: p.PersonalPasswordQuestion, InviteEmailSubject: effectiveInviteSubject(t),
			Locale: p.Locale,
		}
	}
	return out
}

func toTransactionSummaryJSON(t *models.Transaction) transactionSummaryJSON {
	return transactionSummaryJSON{
		ID: t.ID, Status: t.Status, ReferenceID: t.ReferenceID, Version: t.Version,
		DocumentCount: t.DocumentCount, TagCount: t.TagCount, ParticipantCount: t.ParticipantCount,
		CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt,
	}
}
