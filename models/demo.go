package models

import (
	"bytes"
	"context"
	"errors"

	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/secret"
)

// demoSettingKey marks an installation whose demo data was created.
const demoSettingKey = "demo_seeded"

// errDemoExists stops the seeding transaction when another start seeded first.
var errDemoExists = errors.New("demo data exists")

// Demo is what SeedDemo created; the plaintext secrets are shown only once.
type Demo struct {
	Organization  *Organization
	Sender        *User
	Admin         *User
	AdminPassword string
	Token         string
	Document      *Document
	// Disclosure is a second, shorter sample in the demo room.
	Disclosure *Document
	// Room is a ready Markup Room on the sample PDF; RoomToken opens it.
	Room      *Room
	RoomToken string
}

// SeedDemo fills an empty database with a demo organization, a sender, an
// admin with a random password, an API token, two sample PDFs and a Markup
// Room on both. It returns
// nil, nil when the database already holds organizations or was seeded
// before, so repeated starts create nothing new.
func (s *Store) SeedDemo(ctx context.Context) (*Demo, error) {
	var orgs int64
	if err := s.db.WithContext(ctx).Model(&Organization{}).Count(&orgs).Error; err != nil {
		return nil, mapDBError(err)
	}
	if _, seeded, err := s.Setting(ctx, demoSettingKey); err != nil || seeded || orgs > 0 {
		return nil, err
	}
	sample, err := pdf.Sample(3, "Sample Purchase Agreement")
	if err != nil {
		return nil, err
	}
	staged, err := s.StageUpload(ctx, bytes.NewReader(sample), int64(len(sample)), "sample-purchase-agreement.pdf")
	if err != nil {
		return nil, err
	}
	defer staged.Close()
	second, err := pdf.Sample(2, "Sample Disclosure Statement")
	if err != nil {
		return nil, err
	}
	stagedSecond, err := s.StageUpload(ctx, bytes.NewReader(second), int64(len(second)), "sample-disclosure-statement.pdf")
	if err != nil {
		return nil, err
	}
	defer stagedSecond.Close()
	adminPassword, err := secret.RandomHex(9)
	if err != nil {
		return nil, err
	}
	demo := &Demo{AdminPassword: adminPassword}
	err = s.inTx(ctx, func(tx *Store) error {
		claimed, err := claimSetting(ctx, tx.db, demoSettingKey, "true", tx.Now())
		if err != nil {
			return err
		}
		if !claimed {
			return errDemoExists
		}
		if demo.Organization, err = tx.CreateOrganization(ctx, demoOrganizationName, true); err != nil {
			return err
		}
		orgID := demo.Organization.ID
		if demo.Sender, err = tx.CreateUser(ctx, NewUser{OrganizationID: orgID, Email: demoSenderEmail, FirstName: "Sam", LastName: "Sender"}); err != nil {
			return err
		}
		if demo.Admin, err = tx.CreateUser(ctx, NewUser{OrganizationID: orgID, Email: "admin@example.com", FirstName: "Ada", LastName: "Admin", Admin: true, Password: adminPassword}); err != nil {
			return err
		}
		var tok *APIToken
		if tok, demo.Token, err = tx.CreateAPIToken(ctx, orgID, "Demo token"); err != nil {
			return err
		}
		demo.Document, err = tx.SaveDocument(ctx, staged, NewDocument{OrganizationID: orgID, TokenID: &tok.ID, Title: "Sample Purchase Agreement"})
		if err != nil {
			return err
		}
		demo.Disclosure, err = tx.SaveDocument(ctx, stagedSecond, NewDocument{OrganizationID: orgID, TokenID: &tok.ID, Title: "Sample Disclosure Statement"})
		if err != nil {
			return err
		}
		actor := (&Principal{Organization: demo.Organization, Token: tok}).Actor()
		room, err := tx.CreateRoom(ctx, actor, &RoomInput{
			Config:    DefaultRoomConfig(),
			SenderID:  formatInt(demo.Sender.ID),
			Documents: []string{demo.Document.ID, demo.Disclosure.ID},
			Participants: []RoomParticipantInput{
				{FirstName: "Pat", LastName: "Buyer", Email: "pat.buyer@example.com"},
				{FirstName: "Robin", LastName: "Seller", Email: "robin.seller@example.com"},
			},
		})
		if err != nil {
			return err
		}
		demo.Room, demo.RoomToken = room.Room, room.Token
		return nil
	})
	if errors.Is(err, errDemoExists) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return demo, nil
}

// Demo organization and sender, as SeedDemo names them.
const (
	demoOrganizationName = "Demo Organization"
	demoSenderEmail      = "sender@example.com"
)

// DemoOnRecord is the demo data of an earlier start, for the start-up line
// that says how to open a new room in it.
type DemoOnRecord struct {
	OrganizationID, SenderID int64
}

// FindDemo returns the demo organization and sender an earlier start
// created, or nil when this installation was never seeded or they are gone
// (the organization renamed or the sender removed).
func (s *Store) FindDemo(ctx context.Context) (*DemoOnRecord, error) {
	if _, seeded, err := s.Setting(ctx, demoSettingKey); err != nil || !seeded {
		return nil, err
	}
	var row struct{ OrganizationID, SenderID int64 }
	err := s.db.WithContext(ctx).Raw(`SELECT o.id AS organization_id, u.id AS sender_id FROM organizations o
	JOIN users u ON u.organization_id = o.id AND u.email = ? AND u.disabled_at IS NULL
	WHERE o.name = ? ORDER BY o.id LIMIT 1`, demoSenderEmail, demoOrganizationName).Scan(&row).Error
	if err != nil || row.OrganizationID == 0 {
		return nil, mapDBError(err)
	}
	return &DemoOnRecord{OrganizationID: row.OrganizationID, SenderID: row.SenderID}, nil
}
