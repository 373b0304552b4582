package models_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/google/uuid"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

// Paging an export by the last id read gives every selected row once,
// newest first, with its participants in position order (a middle name
// only when there is one), whatever the page size.
func TestAdminExportTransactionsPagesEveryRowOnce(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		acme := env.NewTenant(t, "Acme")
		other := env.NewTenant(t, "Other Co")
		now := env.Clock.Now()
		var want []string
		var txs []models.Transaction
		var people []models.Participant
		for i := 0; i < 30; i++ {
			id, _ := uuid.NewV7()
			org, status := acme.Org.ID, models.StatusDraft
			if i%3 == 0 {
				org = other.Org.ID
			}
			if i%5 == 0 {
				status = models.StatusESignPending
			}
			txs = append(txs, models.Transaction{ID: id.String(), OrganizationID: org, ReferenceID: fmt.Sprint("ref-", i), Status: status,
				EVault: "default", SendFinalEnoteTo: models.StringList{"default"}, Version: 1, ParticipantCount: 2, CreatedAt: now, UpdatedAt: now})
			middle, empty := "Q", ""
			people = append(people, models.Participant{TransactionID: id.String(), Position: 1, ParticipantID: "q", Email: fmt.Sprintf("q%d@example.com", i),
				FirstName: "Pat", MiddleName: &middle, LastName: fmt.Sprint(i), AuthenticationType: models.AuthNone, TwoFactorContact: models.ContactEmail},
				models.Participant{TransactionID: id.String(), Position: 0, ParticipantID: "p", Email: fmt.Sprintf("p%d@example.com", i),
					FirstName: "Pat", MiddleName: &empty, LastName: fmt.Sprint(i), AuthenticationType: models.AuthNone, TwoFactorContact: models.ContactEmail})
			if org == acme.Org.ID && status == models.StatusDraft {
				want = append(want, id.String())
			}
		}
		if err := env.DB.DB.Create(&txs).Error; err != nil {
			t.Fatal(err)
		}
		if err := env.DB.DB.Create(&people).Error; err != nil {
			t.Fatal(err)
		}
		slices.Reverse(want)                                                                                                         // newest first
		f := models.AdminTransactionFilter{OrganizationID: acme.Org.ID, Status: models.StatusDraft, After: want[3], Before: want[1]} // After/Before: not used
		var got []string
		after := ""
		for pages := 0; ; pages++ {
			if pages > len(want) {
				t.Fatal("the pages never end")
			}
			rows, err := env.Store.AdminExportTransactions(context.Background(), f, after, 4)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range rows {
				got = append(got, r.ID)
				n := r.ReferenceID[len("ref-"):]
				if r.ParticipantNames != "Pat "+n+"; Pat Q "+n || r.ParticipantEmails != "p"+n+"@example.com; q"+n+"@example.com" || r.OrganizationName != "Acme" || r.DocumentTitles != "" {
					t.Errorf("row %s: %q %q %q", r.ReferenceID, r.ParticipantNames, r.ParticipantEmails, r.OrganizationName)
				}
			}
			if len(rows) < 4 {
				break
			}
			after = rows[len(rows)-1].ID
		}
		if !slices.Equal(got, want) {
			t.Fatalf("pages read %v\nwant %v", got, want)
		}
		// The page size is clamped to 1…ExportPageSize.
		for limit, n := range map[int]int{0: 1, -5: 1, models.ExportPageSize * 10: len(want)} {
			rows, err := env.Store.AdminExportTransactions(context.Background(), f, "", limit)
			if err != nil || len(rows) != n {
				t.Errorf("limit %d: %d rows, %v", limit, len(rows), err)
			}
		}
		if _, err := env.Store.AdminExportTransactions(context.Background(), models.AdminTransactionFilter{Status: "bogus"}, "", 10); err == nil {
			t.Error("an unknown status was not refused")
		}
	})
}
