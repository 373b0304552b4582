package modelstest

import (
	"encoding/json"
	"fmt"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/tagtype"
)

func benchTagTypes() []string {
	return []string{tagtype.Signature, tagtype.Initials, tagtype.Date, tagtype.FullName}
}

// TransactionBody is an operation A body for doc: 2 participants without passwords
// (authenticationType "none", so no password hashing is timed) and
// tagsPerDoc tags on each of docs documents, spread over the 3 pages of the
// sample PDF inside its 612×792 box. Documents name their upload by id and
// gcsRefId, as a read sent back would. The benchmarks and cmd/loadbench send it.
func TransactionBody(doc *models.Document, docs, tagsPerDoc int) []byte {
	type obj = map[string]any
	types := benchTagTypes()
	documents := make([]obj, 0, docs)
	for d := range docs {
		tags := make([]obj, 0, tagsPerDoc)
		for j := range tagsPerDoc {
			slot := j / 3
			tag := obj{
				"type":       types[j%len(types)],
				"x":          36 + (slot%8)*70, // 36 … 526, + width 60 ≤ 586
				"y":          36 + (slot/8%28)*25,
				"width":      60,
				"height":     20,
				"signerId":   fmt.Sprint("p", 1+j%2),
				"customData": obj{"label": fmt.Sprint("field ", j+1)},
				"page":       1 + j%3,
				"required":   true,
			}
			if tag["type"] == tagtype.Date {
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
