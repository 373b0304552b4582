package models_test

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/markuproom/markuproom/models"
)

// Webhook bodies are a contract: each event type's body, as the map-based
// payloads wrote it, reads into its struct and is written again byte for byte.
func TestWebhookBodiesKeepTheirBytes(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 24, 5, 0, 0, 123000000, time.UTC)
	fields := models.TransactionWebhookFields{ReferenceID: "ref-1", Status: models.StatusESignPending, TransactionID: "0190-tx", Version: 3}
	for _, c := range []struct {
		body string
		want models.WebhookData
	}{
		{`{"id":"evt_1","type":"transaction.updated","time":"2026-11-24T05:00:00.123Z","data":{"referenceId":"ref-1","status":"esign_pending","transactionId":"0190-tx","version":3}}`,
			models.TransactionUpdatedData{TransactionWebhookFields: fields}},
		{`{"id":"evt_1","type":"transaction.esign_pending","time":"2026-11-24T05:00:00.123Z","data":{"referenceId":"ref-1","status":"esign_pending","transactionId":"0190-tx","version":3}}`,
			models.TransactionESignPendingData{TransactionWebhookFields: fields}},
		{`{"id":"evt_1","type":"markup_room.completed","time":"2026-11-24T05:00:00.123Z","data":{"referenceId":"ref-1","roomId":"0190-room","status":"esign_pending","transactionId":"0190-tx","version":3}}`,
			models.RoomCompletedData{ReferenceID: "ref-1", RoomID: "0190-room", Status: models.StatusESignPending, TransactionID: "0190-tx", Version: 3}},
	} {
		var ev models.WebhookEvent
		if err := json.Unmarshal([]byte(c.body), &ev); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(ev.Data, c.want) || ev.Type != c.want.EventType() || ev.ID != "evt_1" || !ev.Time.Equal(at) {
			t.Fatalf("%s reads as %+v", c.body, ev)
		}
		b, err := json.Marshal(models.WebhookEvent{ID: "evt_1", Type: c.want.EventType(), Time: at, Data: c.want})
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != c.body {
			t.Fatalf("written as\n%s\nnot\n%s", b, c.body)
		}
	}
	for _, e := range models.WebhookEvents() {
		var ev models.WebhookEvent
		if err := json.Unmarshal([]byte(`{"id":"evt_2","type":"`+e+`","data":{}}`), &ev); err != nil || ev.Data == nil || ev.Data.EventType() != e {
			t.Errorf("event type %s has no data struct: %v", e, err)
		}
	}
	var ev models.WebhookEvent
	if err := json.Unmarshal([]byte(`{"id":"evt_3","type":"transaction.deleted","data":{}}`), &ev); err == nil {
		t.Error("an unknown event type reads")
	}
}
