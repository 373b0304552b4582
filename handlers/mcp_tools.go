package handlers

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/markuproom/markuproom/models"
)

// mcpTool is one tool of the MCP server: what tools/list tells (name,
// description, input and output schemas, hints) and what tools/call runs.
type mcpTool struct {
	name, title, description string
	input, output            any
	readOnly, destructive    bool
	// maxBody is the largest body of a message that calls the tool (0:
	// mcpMessageBytes, the limit of every message; mcp_body.go).
	maxBody int64
	// pointer moves a problem's pointer from where the API's route puts it
	// to the tool's arguments (nil: the same place).
	pointer func(string) string
	run     func(ctx context.Context, caller *mcpCaller, args json.RawMessage) (any, error)
}

// definition is the tool as tools/list shows it.
func (t mcpTool) definition() *mcp.Tool {
	destructive, openWorld := t.destructive, false
	return &mcp.Tool{
		Name: t.name, Title: t.title, Description: t.description, InputSchema: t.input, OutputSchema: t.output,
		Annotations: &mcp.ToolAnnotations{Title: t.title, ReadOnlyHint: t.readOnly, DestructiveHint: &destructive,
			IdempotentHint: t.readOnly || t.destructive, OpenWorldHint: &openWorld},
	}
}

// The arguments of the tools that take a few plain fields: their input
// schemas are inferred from these types (mcpArgs reads the values).
type (
	mcpUploadArgs struct {
		Filename      string `json:"filename" jsonschema:"The PDF's file name, such as lease.pdf (the document's title when title is left out)."`
		ContentBase64 string `json:"content_base64" jsonschema:"The PDF file's bytes in base64 (standard alphabet; line breaks and missing padding are accepted)."`
		Title         string `json:"title,omitempty" jsonschema:"The document's title as participants see it (at most 255 characters). Default: the file name without .pdf."`
	}
	mcpDocumentArgs struct {
		ID string `json:"id" jsonschema:"The document's id, as upload_document answered it."`
	}
	mcpTransactionArgs struct {
		ID string `json:"id" jsonschema:"The transaction's id: the transactionId of create_markup_room's answer, or an id from list_transactions."`
	}
	mcpReviseArgs struct {
		TransactionID     string `json:"transactionId" jsonschema:"The transaction's id."`
		DocumentID        string `json:"documentId" jsonschema:"The id of the transaction's document to replace (its id in get_transaction's documents)."`
		RevisedDocumentID string `json:"revisedDocumentId" jsonschema:"The id of the revised version, as upload_document answered it."`
		IfVersion         int    `json:"ifVersion,omitempty" jsonschema:"The transaction's version you read: a transaction changed since is refused with 412."`
	}
	mcpRoomArgs struct {
		ID string `json:"id" jsonschema:"The Markup Room's id, as create_markup_room answered it."`
	}
	mcpTransactionListArgs struct {
		Status      string `json:"status,omitempty" jsonschema:"Only transactions in this status."`
		ReferenceID string `json:"referenceId,omitempty" jsonschema:"Only transactions with exactly this referenceId."`
		Limit       int    `json:"limit,omitempty" jsonschema:"How many transactions to list, newest first (default 50)."`
		Cursor      string `json:"cursor,omitempty" jsonschema:"The nextCursor of the previous page, to read the next one."`
	}
	mcpTemplateListArgs struct {
		Query  string `json:"q,omitempty" jsonschema:"Only templates whose name contains this text (any case)."`
		Limit  int    `json:"limit,omitempty" jsonschema:"How many templates to list, newest first (default 50)."`
		Cursor string `json:"cursor,omitempty" jsonschema:"The nextCursor of the previous page, to read the next one."`
	}
)

// tools builds every tool with its schemas: inferred from the argument
// types above, or taken from the OpenAPI document for the API's bodies and
// answers.
func (m *mcpHandler) tools(o *openAPISchemas) ([]mcpTool, error) {
	var errs []error
	must := func(s *jsonschema.Schema, err error) *jsonschema.Schema {
		errs = append(errs, err)
		return s
	}
	list := []mcpTool{
		m.uploadTool(must(o.schema("Document"))),
		m.detectedTagsTool(must(o.schema("DetectedTags"))),
		m.createRoomTool(must(o.schema("RoomInput")), must(o.schema("Room"))),
		m.getRoomTool(must(o.schema("Room"))),
		m.getTransactionTool(must(o.schema("Transaction"))),
		m.reviewTransactionTool(must(o.schema("TransactionReview"))),
		m.listTransactionsTool(must(o.list("TransactionSummary", "One page of the organization's transactions, newest first."))),
		m.updateTransactionTool(updateTransactionSchema(must(o.schema("TransactionInput"))), must(o.schema("Transaction"))),
		m.listTemplatesTool(must(o.list("TemplateSummary", "One page of the organization's templates, newest first."))),
		m.reviseDocumentTool(must(revisedSchema(o))),
	}
	inputs := map[string]func() (any, error){
		"upload_document":    inferred[mcpUploadArgs],
		"get_detected_tags":  inferred[mcpDocumentArgs],
		"get_markup_room":    inferred[mcpRoomArgs],
		"get_transaction":    inferred[mcpTransactionArgs],
		"review_transaction": inferred[mcpTransactionArgs],
		"revise_document":    inferred[mcpReviseArgs],
		"list_transactions":  listTransactionsSchema,
		"list_templates":     listTemplatesSchema,
	}
	for i := range list {
		if infer, ok := inputs[list[i].name]; ok {
			s, err := infer()
			errs = append(errs, err)
			list[i].input = s
		}
	}
	for _, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("MCP tool schemas: %w", err)
		}
	}
	return list, nil
}

// inferred is the inferred input schema of T.
func inferred[T any]() (any, error) { return inferredSchema[T]() }

// listTransactionsSchema is list_transactions' inferred schema with the
// status values and the limit's range.
func listTransactionsSchema() (any, error) {
	s, err := inferredSchema[mcpTransactionListArgs]()
	if err != nil {
		return nil, err
	}
	for _, v := range models.TransactionStatuses() {
		s.Properties["status"].Enum = append(s.Properties["status"].Enum, v)
	}
	setLimitRange(s.Properties["limit"])
	return s, nil
}

// listTemplatesSchema is list_templates' inferred schema with the limits.
func listTemplatesSchema() (any, error) {
	s, err := inferredSchema[mcpTemplateListArgs]()
	if err != nil {
		return nil, err
	}
	maxLen := models.MaxTitleLength
	s.Properties["q"].MaxLength = &maxLen
	setLimitRange(s.Properties["limit"])
	return s, nil
}

// setLimitRange gives a list's limit its range.
func setLimitRange(s *jsonschema.Schema) {
	lo, hi := 1.0, float64(models.MaxListLimit)
	s.Minimum, s.Maximum = &lo, &hi
}

// updateTransactionSchema is operation A's body (TransactionInput) with the
// transaction's id required and the optional ifVersion.
func updateTransactionSchema(body *jsonschema.Schema) *jsonschema.Schema {
	if body == nil {
		return nil
	}
	if body.Properties == nil {
		body.Properties = map[string]*jsonschema.Schema{}
	}
	body.Properties["id"] = &jsonschema.Schema{Type: "string", Description: "The id of the transaction to replace (get_transaction or list_transactions name it)."}
	body.Properties["ifVersion"] = &jsonschema.Schema{Type: "integer", Minimum: jsonschema.Ptr(1.0), Description: "The version you read (get_transaction's version): " +
		"the call is refused with 412 when the transaction changed since. Leave it out to replace whatever is there."}
	body.Required = append(slices.Clone(body.Required), "id")
	body.Description = "Operation A's body: the whole transaction as it shall be afterwards, plus its id."
	return body
}
