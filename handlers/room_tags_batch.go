package handlers

import (
	"bytes"
	"io"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/web/i18n"
)

// maxTagBatchBytes bounds the JSON body of a batch of tag edits: 5000
// changes of about 250 bytes each, with room to spare.
const maxTagBatchBytes = 2 << 20

// applyRoomTagBatch writes a group of tag edits at once, all or nothing:
// POST /rooms/:id/tags/batch with a JSON body {create, update, delete}
// (models.ParseTagBatch), the room's CSRF token in X-CSRF-Token. The answer
// (200, text/html) is the server's rendering of every created tag in
// request order, then of every updated tag in request order, one
// templates.Tag each as the one-tag routes answer; deleted tags have none.
// A refusal is a problem (400/404/422, errors pointing into the body, e.g.
// "#/update/2/id") and changes nothing.
func (h *roomHandler) applyRoomTagBatch(c *gin.Context) error {
	roomID, body, err := h.roomJSONPost(c, maxTagBatchBytes)
	if err != nil {
		return err
	}
	batch, err := models.ParseTagBatch(body)
	if err != nil {
		return err
	}
	res, err := h.tags.ApplyRoomTagBatch(c.Request.Context(), roomID, batch)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	for _, e := range append(res.Created, res.Updated...) {
		if err := tagComponent(i18n.From(c.Request.Context()), roomID, e).Render(c.Request.Context(), &buf); err != nil {
			return err
		}
	}
	c.Data(http.StatusOK, "text/html; charset=utf-8", buf.Bytes())
	return nil
}

// roomJSONPost reads a room POST the editor sends by fetch with a JSON body
// of at most limit bytes: the room (with roomPostWithin's checks), then the
// body.
func (h *roomHandler) roomJSONPost(c *gin.Context, limit int64) (string, []byte, error) {
	roomID, err := h.roomPostWithin(c, limit)
	if err != nil {
		return "", nil, err
	}
	if err := requireJSON(c); err != nil {
		return "", nil, err
	}
	body, err := io.ReadAll(c.Request.Body)
	if err != nil {
		return "", nil, err
	}
	return roomID, body, nil
}
