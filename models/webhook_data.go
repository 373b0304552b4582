package models

// WebhookData is the data of one webhook event, one struct per event type;
// the type comes from the struct, so data cannot be sent under another
// type's name. The JSON is the webhook contract (docs/decisions.md): each
// struct's fields are in the alphabetical order of their keys, the bytes
// the earlier map-based payloads had.
type WebhookData interface {
	// EventType is the webhook event type (WebhookTransactionUpdated, …).
	EventType() string
}

// TransactionWebhookFields are the transaction's fields every event of a
// transaction change carries; receivers read the rest through the API.
type TransactionWebhookFields struct {
	ReferenceID   string `json:"referenceId"`
	Status        string `json:"status"`
	TransactionID string `json:"transactionId"`
	Version       int    `json:"version"`
}

// TransactionUpdatedData is the data of transaction.updated: an existing
// transaction changed.
type TransactionUpdatedData struct {
	TransactionWebhookFields
}

// EventType implements WebhookData.
func (TransactionUpdatedData) EventType() string { return WebhookTransactionUpdated }

// TransactionESignPendingData is the data of transaction.esign_pending: the
// transaction became esign_pending.
type TransactionESignPendingData struct {
	TransactionWebhookFields
}

// EventType implements WebhookData.
func (TransactionESignPendingData) EventType() string { return WebhookTransactionESignPending }

// RoomCompletedData is the data of markup_room.completed: the e-signature
// session was created from a Markup Room (the transaction's fields and the room).
type RoomCompletedData struct {
	ReferenceID   string `json:"referenceId"`
	RoomID        string `json:"roomId"`
	Status        string `json:"status"`
	TransactionID string `json:"transactionId"`
	Version       int    `json:"version"`
}

// EventType implements WebhookData.
func (RoomCompletedData) EventType() string { return WebhookRoomCompleted }
