package models

import "context"

// AdminTransaction is everything the console shows of one transaction.
type AdminTransaction struct {
	Transaction  *Transaction
	Organization *Organization
	// Uploads give each document's page geometry, by upload id.
	Uploads map[string]*Document
	Events  []TransactionEvent
}

// AdminGetTransaction reads any organization's transaction with its
// documents, tags, participants, page geometry and history.
func (s *Store) AdminGetTransaction(ctx context.Context, id string) (*AdminTransaction, error) {
	var t Transaction
	if err := s.db.WithContext(ctx).Where("id = ?", id).Take(&t).Error; err != nil {
		return nil, mapDBError(err)
	}
	if err := s.loadChildren(ctx, &t); err != nil {
		return nil, err
	}
	var org Organization
	if err := s.db.WithContext(ctx).Where("id = ?", t.OrganizationID).Take(&org).Error; err != nil {
		return nil, mapDBError(err)
	}
	ids := make([]string, len(t.Documents))
	for i, d := range t.Documents {
		ids[i] = d.DocumentID
	}
	uploads, err := s.FindDocumentsByRef(ctx, t.OrganizationID, ids)
	if err != nil {
		return nil, err
	}
	events, err := s.ListTransactionEvents(ctx, t.OrganizationID, t.ID)
	if err != nil {
		return nil, err
	}
	return &AdminTransaction{Transaction: &t, Organization: &org, Uploads: uploads, Events: events}, nil
}
