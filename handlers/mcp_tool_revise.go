package handlers

import (
	"context"
	"encoding/json"
	"strconv"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/markuproom/markuproom/models"
)

// reviseDocumentTool is revise_document: POST
// /api/v1/transactions/{id}/documents/{documentId}/revise, ifVersion
// standing for If-Match.
func (m *mcpHandler) reviseDocumentTool(output *jsonschema.Schema) mcpTool {
	return mcpTool{
		name: "revise_document", title: "Replace a document by its revised version", destructive: true,
		description: "Replace one document of a transaction by its revised version (upload the new PDF with upload_document first): " +
			"every signature field placed on the old version is found again on the new one by the words around it and moved there, " +
			"its size kept; a field whose words cannot be found surely enough stays where it was and is flagged for a look. " +
			"No field is dropped. The answer is the transaction as it now is and revision: each tag's outcome (moved, unchanged, " +
			"flagged with a reason), old and new page and position, and the words added and removed on each page. " +
			"With ifVersion, a transaction changed since that version is refused with 412.",
		output: output,
		run: func(ctx context.Context, caller *mcpCaller, raw json.RawMessage) (any, error) {
			a := readMCPArgs(raw, "transactionId", "documentId", "revisedDocumentId", "ifVersion")
			txID, docID := a.str("transactionId", true, 0), a.str("documentId", true, 0)
			revised := a.str("revisedDocumentId", true, models.MaxShortTextLength)
			version := a.integer("ifVersion")
			if err := a.err(); err != nil {
				return nil, err
			}
			if !models.ValidServiceID(txID) || !models.ValidServiceID(docID) {
				return nil, models.ErrNotFound
			}
			ifMatch := ""
			if version > 0 {
				ifMatch = strconv.Quote(strconv.Itoa(version))
			}
			r, err := m.api.transactions.ReviseDocument(ctx, caller.historyActor(), txID, docID, revised, ifMatch)
			if err != nil {
				return nil, err
			}
			return revisedTransactionJSON{transactionJSON: toTransactionJSON(r.Transaction), Revision: r.Report}, nil
		},
	}
}

// revisedSchema is revise_document's answer: the Transaction schema with
// the revision's report beside it.
func revisedSchema(o *openAPISchemas) (*jsonschema.Schema, error) {
	s, err := o.schema("Transaction")
	if err != nil {
		return nil, err
	}
	report, err := o.schema("RevisionReport")
	if err != nil {
		return nil, err
	}
	s.Properties["revision"] = report
	s.Required = append(s.Required, "revision")
	if s.PropertyOrder != nil {
		s.PropertyOrder = append(s.PropertyOrder, "revision")
	}
	return s, nil
}
