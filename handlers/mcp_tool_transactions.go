package handlers

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/web/i18n"
)

// checkMCPBody refuses an API body over the API's JSON limit, as the API's
// routes do (413).
func (m *mcpHandler) checkMCPBody(raw json.RawMessage) error {
	if int64(len(raw)) > m.api.cfg.MaxJSONBytes {
		return &http.MaxBytesError{Limit: m.api.cfg.MaxJSONBytes}
	}
	return nil
}

// operationBody is the largest body of a call that carries an operation's
// body: the API's JSON limit for the arguments, and a message's room for
// the envelope.
func (m *mcpHandler) operationBody() int64 {
	return m.api.cfg.MaxJSONBytes + mcpMessageBytes
}

// createRoomTool is create_markup_room: operation B (POST /api/v1/markup-rooms).
func (m *mcpHandler) createRoomTool(input, output *jsonschema.Schema) mcpTool {
	return mcpTool{
		name: "create_markup_room", title: "Create a Markup Room",
		description: "Create a Markup Room: a web page where a person places the signature fields on the documents " +
			"and names who signs. The arguments are the API's Markup Room request: senderId (a user of your organization), " +
			"documents (the locations upload_document answered), participants, an optional templateId " +
			"(from upload_document's templateMatches or list_templates: its fields are placed on the documents) and config. " +
			"The answer carries url (the room's link: give it to the person who prepares the documents; it is shown only here), " +
			"id (for get_markup_room) and transactionId (for get_transaction and update_transaction).",
		input: input, output: output, maxBody: m.operationBody(),
		run: func(ctx context.Context, caller *mcpCaller, raw json.RawMessage) (any, error) {
			if err := m.checkMCPBody(raw); err != nil {
				return nil, err
			}
			in, err := models.ParseRoomInput(raw)
			if err != nil {
				return nil, err
			}
			created, err := m.api.rooms.CreateRoom(ctx, caller.historyActor(), in)
			if err != nil {
				return nil, err
			}
			return m.api.createdRoomJSON(created), nil
		},
	}
}

// getRoomTool is get_markup_room: GET /api/v1/markup-rooms/{id}.
func (m *mcpHandler) getRoomTool(output *jsonschema.Schema) mcpTool {
	return mcpTool{
		name: "get_markup_room", title: "Read a Markup Room", readOnly: true,
		description: "Read a Markup Room: its status (open, completed once the e-signature session was created, expired), " +
			"its configuration, when it expires and its transactionId. The link itself is not shown again.",
		output: output,
		run: func(ctx context.Context, caller *mcpCaller, raw json.RawMessage) (any, error) {
			id, err := mcpID(raw)
			if err != nil {
				return nil, err
			}
			r, err := m.api.rooms.GetRoom(ctx, caller.principal.Organization.ID, id)
			if err != nil {
				return nil, err
			}
			return m.api.roomJSON(r), nil
		},
	}
}

// getTransactionTool is get_transaction: GET /api/v1/transactions/{id}.
func (m *mcpHandler) getTransactionTool(output *jsonschema.Schema) mcpTool {
	return mcpTool{
		name: "get_transaction", title: "Read a transaction", readOnly: true,
		description: "Read an e-signature transaction as it is now: its documents with every placed tag " +
			"(type, page, rectangle in PDF points, signerId), its participants and its version " +
			"(pass it as ifVersion to update_transaction to refuse overwriting someone else's change).",
		output: output,
		run: func(ctx context.Context, caller *mcpCaller, raw json.RawMessage) (any, error) {
			id, err := mcpID(raw)
			if err != nil {
				return nil, err
			}
			t, err := m.api.transactions.GetTransaction(ctx, caller.principal.Organization.ID, id)
			if err != nil {
				return nil, err
			}
			return toTransactionJSON(t), nil
		},
	}
}

// reviewTransactionTool is review_transaction: GET
// /api/v1/transactions/{id}/review.
func (m *mcpHandler) reviewTransactionTool(output *jsonschema.Schema) mcpTool {
	return mcpTool{
		name: "review_transaction", title: "Check a transaction before sending", readOnly: true,
		description: "Walk every participant's path through a transaction and list what would go wrong when its " +
			"e-signature session is created: blocking findings (a participant with nothing to sign, a tag without " +
			"or with an unknown signer, a shared e-mail) first, then warnings (overlapping tags, tags off the page or " +
			"over printed words, missing initials, untagged documents, …), each with its participant, document, " +
			"pages, tags and a sentence.",
		output: output,
		run: func(ctx context.Context, caller *mcpCaller, raw json.RawMessage) (any, error) {
			id, err := mcpID(raw)
			if err != nil {
				return nil, err
			}
			r, err := m.api.transactions.ReviewTransaction(ctx, caller.principal.Organization.ID, id)
			if err != nil {
				return nil, err
			}
			return toReviewJSON(i18n.From(ctx), r), nil
		},
	}
}

// listTransactionsTool is list_transactions: GET /api/v1/transactions.
func (m *mcpHandler) listTransactionsTool(output *jsonschema.Schema) mcpTool {
	return mcpTool{
		name: "list_transactions", title: "List transactions", readOnly: true,
		description: "List the organization's e-signature transactions, newest first, a page at a time " +
			"(counts of documents, tags and participants each); filter by status or referenceId. " +
			"When nextCursor is in the answer, call again with it as cursor for the next page.",
		output: output, pointer: queryPointers,
		run: func(ctx context.Context, caller *mcpCaller, raw json.RawMessage) (any, error) {
			a := readMCPArgs(raw, "status", "referenceId", "limit", "cursor")
			f := models.TransactionFilter{Status: a.str("status", false, 0), ReferenceID: a.str("referenceId", false, 255),
				Limit: a.integer("limit"), Cursor: a.str("cursor", false, 0)}
			if err := a.err(); err != nil {
				return nil, err
			}
			return m.api.transactionList(ctx, caller.principal.Organization.ID, f)
		},
	}
}

// updateTransactionTool is update_transaction: operation A (PUT
// /api/v1/transactions/{id}), ifVersion standing for If-Match.
func (m *mcpHandler) updateTransactionTool(input, output *jsonschema.Schema) mcpTool {
	return mcpTool{
		name: "update_transaction", title: "Replace a transaction", destructive: true,
		description: "Replace an e-signature transaction's documents, tags and participants with these, in one step: " +
			"afterwards the transaction is exactly this request (read it first with get_transaction and send it back changed). " +
			"Every problem is listed at once, each with a JSON pointer into these arguments and a code: " +
			"400 for syntax, types, required fields and limits, 422 for references (an unknown signerId, a page or rectangle " +
			"outside its document). With ifVersion, a transaction changed since that version is refused with 412.",
		input: input, output: output, maxBody: m.operationBody(),
		run: m.updateTransaction,
	}
}

func (m *mcpHandler) updateTransaction(ctx context.Context, caller *mcpCaller, raw json.RawMessage) (any, error) {
	if err := m.checkMCPBody(raw); err != nil {
		return nil, err
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(raw, &fields) != nil {
		_, err := models.ParseTransactionInput(raw) // says what is wrong with the body
		return nil, err
	}
	ifMatch := ""
	if v, ok := fields["ifVersion"]; ok {
		n, err := strconv.Atoi(string(v))
		if err != nil || n < 1 {
			return nil, models.Invalid("#/ifVersion", "invalid_type", "problem.mcp.if_version")
		}
		ifMatch = strconv.Quote(strconv.Itoa(n))
		delete(fields, "ifVersion")
		raw, _ = json.Marshal(fields)
	}
	var id string
	if json.Unmarshal(fields["id"], &id) != nil || id == "" {
		return nil, models.Invalid("#/id", "required", "problem.mcp.replace_id")
	}
	if !models.ValidServiceID(id) {
		return nil, models.ErrNotFound
	}
	in, err := parseTransactionInput(raw)
	if err != nil {
		return nil, err
	}
	t, err := m.api.transactions.ReplaceTransaction(ctx, caller.historyActor(), id, in, ifMatch)
	if err != nil {
		return nil, err
	}
	return m.api.replacedJSON(ctx, t)
}

// listTemplatesTool is list_templates: GET /api/v1/templates.
func (m *mcpHandler) listTemplatesTool(output *jsonschema.Schema) mcpTool {
	return mcpTool{
		name: "list_templates", title: "List templates", readOnly: true,
		description: "List the organization's templates (saved sets of signature fields with roles for one or more documents), " +
			"newest first, a page at a time; q keeps those whose name contains it. " +
			"Pass a template's id as templateId to create_markup_room to start a room with its fields placed.",
		output: output, pointer: queryPointers,
		run: func(ctx context.Context, caller *mcpCaller, raw json.RawMessage) (any, error) {
			a := readMCPArgs(raw, "q", "limit", "cursor")
			f := models.TemplateFilter{Query: a.str("q", false, 0), Limit: a.integer("limit"), Cursor: a.str("cursor", false, 0)}
			if err := a.err(); err != nil {
				return nil, err
			}
			return m.api.templateList(ctx, caller.principal.Organization.ID, f)
		},
	}
}
