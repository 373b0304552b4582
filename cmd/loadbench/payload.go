package main

import (
	"encoding/json"
	"fmt"
)

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
