package handlers

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/web/i18n"
)

// uploadToolName names the tool whose calls carry a file.
const uploadToolName = "upload_document"

// uploadTool is upload_document: the API's upload (POST
// /api/v1/documents/upload) with the PDF as base64 text.
func (m *mcpHandler) uploadTool(output *jsonschema.Schema) mcpTool {
	return mcpTool{
		name: uploadToolName, title: "Upload a PDF",
		description: fmt.Sprintf("Upload a PDF document (at most %d bytes once decoded) to use in a Markup Room. "+
			"The answer is the stored document: its id, its location (what create_markup_room takes in documents), "+
			"its pages and page boxes, detectedTags (how many signature fields the PDF itself proposes; get_detected_tags lists them) "+
			"and templateMatches (templates of the organization whose document this one resembles, best first: "+
			"pass one's templateId to create_markup_room to place its fields). "+
			"A file that is not a PDF, is encrypted with a password or is damaged beyond repair is refused with 422.", m.api.cfg.MaxUploadBytes),
		output:  output,
		pointer: uploadPointers,
		// The base64 text of a file at the upload limit, and a message's
		// room for the envelope and the other arguments.
		maxBody: int64(base64.StdEncoding.EncodedLen(int(m.api.cfg.MaxUploadBytes))) + mcpMessageBytes,
		run:     m.uploadDocument,
	}
}

func (m *mcpHandler) uploadDocument(ctx context.Context, caller *mcpCaller, raw json.RawMessage) (any, error) {
	a := readMCPArgs(raw, "filename", "content_base64", "title")
	fileName := a.str("filename", true, models.MaxTitleLength)
	// The text was decoded from the body as it was read (caller.upload);
	// the arguments hold "" in its place. Only when content_base64 is no
	// string is it read here, to be refused for its type.
	up := caller.upload
	switch {
	case up == nil:
		a.str("content_base64", true, 0)
	case up.empty:
		a.p.Add("#/content_base64", "required", "problem.mcp.empty", "field", models.Quoted("content_base64"))
	}
	title := a.str("title", false, models.MaxTitleLength)
	if err := a.err(); err != nil {
		return nil, err
	}
	if up == nil { // a string the body's scanner did not see as the argument
		return nil, models.Invalid("#/content_base64", "invalid_type", "problem.mcp.base64_type")
	}
	p := caller.principal
	if err := m.limiter.allowUpload(ctx, m.log, p.Token.ID); err != nil {
		return nil, err
	}
	if up.decoded > m.api.cfg.MaxUploadBytes {
		return nil, &models.ValidationError{Kind: models.KindTooLarge, Message: models.Msg("problem.mcp.file_too_large", "max", m.api.cfg.MaxUploadBytes),
			Errors: []models.FieldError{{Pointer: "#/content_base64", Code: "file_too_large",
				Message: models.Msg("problem.mcp.decodes_to", "bytes", up.decoded, "max", m.api.cfg.MaxUploadBytes)}}}
	}
	if up.corrupt >= 0 {
		return nil, models.Invalid("#/content_base64", "invalid_base64", "problem.mcp.not_base64", "offset", up.corrupt)
	}
	staged, err := m.api.documents.StageUpload(ctx, up.file, m.api.cfg.MaxUploadBytes, fileName)
	if err != nil {
		return nil, err
	}
	defer staged.Close()
	_, out, err := m.api.saveUpload(ctx, p, staged, title)
	return out, err
}

// uploadPointers moves the API's pointer to the uploaded file ("#/file")
// to the argument that carries it.
func uploadPointers(ptr string) string {
	if ptr == "#/file" {
		return "#/content_base64"
	}
	return ptr
}

// detectedTagsTool is get_detected_tags: GET /api/v1/documents/{id}/detected-tags.
func (m *mcpHandler) detectedTagsTool(output *jsonschema.Schema) mcpTool {
	return mcpTool{
		name: "get_detected_tags", title: "List a document's detected fields", readOnly: true,
		description: "List what an uploaded PDF itself proposes as signature fields: text tags written into it " +
			"(such as {{signature|1}}), its form fields and suggested fields found next to printed labels " +
			"(\"Signature\", \"Date\"), each placed in PDF points on its page, and the text tags it could not read (problems). " +
			"A Markup Room created with this document starts with these fields placed.",
		output: output,
		run: func(ctx context.Context, caller *mcpCaller, raw json.RawMessage) (any, error) {
			id, err := mcpID(raw)
			if err != nil {
				return nil, err
			}
			found, err := m.api.documents.DocumentDetection(ctx, caller.principal.Organization.ID, id)
			if err != nil {
				return nil, err
			}
			return detectionOut(i18n.English(), found), nil
		},
	}
}

// mcpID reads the arguments {id} of a tool that reads one thing: an id
// that cannot name anything is not found, as on the API's routes.
func mcpID(raw json.RawMessage) (string, error) {
	a := readMCPArgs(raw, "id")
	id := a.str("id", true, 0)
	if err := a.err(); err != nil {
		return "", err
	}
	if !models.ValidServiceID(id) {
		return "", models.ErrNotFound
	}
	return id, nil
}
