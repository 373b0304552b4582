package main

import (
	"encoding/json"
	"fmt"

	"github.com/markuproom/markuproom/models"
)

// txBody is an operation A body for doc: 2 participants without passwords
// (authenticationType "none") and tagsPerDoc tags on each of docs documents,
// spread over the 3 pages of the sample PDF inside its 612×792 box. It has
// the shape of benchTxBody in models/transaction_bench_test.go.
func txBody(doc *models.Document, docs, tagsPerDoc int) []byte {
	type obj = map[string]any
	types := []string{"SIGNATURETEMPLATE", "INITIALSTEMPLATE", "DATETEMPLATE", "FULLNAMETEMPLATE"}
	documents := make([]obj, 0, docs)
	for d := range docs {
		tags := make([]obj, 0, tagsPerDoc)
		for j := range tagsPerDoc {
			slot := j / 3
			tag := obj{
				"type":       types[j%len(types)],
				"x":          36 + (slot%8)*70,
				"y":          36 + (slot/8%28)*25,
				"width":      60,
				"height":     20,
				"signerId":   fmt.Sprint("p", 1+j%2),
				"customData": obj{"label": fmt.Sprint("field ", j+1)},
				"page":       1 + j%3,
				"required":   true,
			}
			if tag["type"] == "DATETEMPLATE" {
				tag["dateFormat"] = "MM/DD/YYYY"
			}
			tags = append(tags, tag)
		}
		documents = append(documents, obj{
			"id": doc.ID, "gcsRefId": doc.ObjectKey, "title": fmt.Sprint("Agreement part ", d+1), "sessionType": "esign",
			"type": "acknowledgment", "pages": 3, "tags": tags,
		})
	}
	body, err := json.Marshal(obj{
		"status": "draft", "referenceId": "bench", "signingOrder": true,
		"documents": documents,
		"participants": []obj{
			{"id": "p1", "email": "pat.buyer@example.com", "firstName": "Pat", "lastName": "Buyer", "authenticationType": "none", "twoFactorContact": "email"},
			{"id": "p2", "email": "robin.seller@example.com", "firstName": "Robin", "lastName": "Seller", "authenticationType": "none", "twoFactorContact": "email"},
		},
	})
	if err != nil {
		panic(err)
	}
	return body
}

// roomBody is an operation B body: the sender, one uploaded document's
// location and two participants.
func roomBody(senderID int64, location string) []byte {
	body, err := json.Marshal(map[string]any{
		"senderId":  fmt.Sprint(senderID),
		"documents": []string{location},
		"participants": []map[string]string{
			{"firstName": "Pat", "lastName": "Buyer", "email": "pat.buyer@example.com"},
			{"firstName": "Robin", "lastName": "Seller", "email": "robin.seller@example.com"},
		},
	})
	if err != nil {
		panic(err)
	}
	return body
}
