package handlers

import (
	"net/http"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/handlers/route"
	"github.com/markuproom/markuproom/models"
)

// roomJSON is a Markup Room as the API reports it; URL is only known when the room is created.
type roomJSON struct {
	ID            string            `json:"id"`
	URL           string            `json:"url,omitempty"`
	Status        string            `json:"status"`
	Config        models.RoomConfig `json:"config"`
	ExpiresAt     time.Time         `json:"expiresAt"`
	TransactionID string            `json:"transactionId"`
	SenderID      string            `json:"senderId"`
	CreatedAt     time.Time         `json:"createdAt"`
	CompletedAt   *time.Time        `json:"completedAt,omitempty"`
	Embed         *roomEmbedJSON    `json:"embed,omitempty"`
	// Locale is the room's language (an extension; absent: none).
	Locale *string `json:"locale,omitempty"`
}

// roomEmbedJSON is the origin a room was created to be framed by.
type roomEmbedJSON struct {
	Origin string `json:"origin"`
}

func (h *apiHandler) roomJSON(r *models.Room) roomJSON {
	out := roomJSON{
		ID: r.ID, Status: r.Status(h.clock.Now()), Config: r.Config, ExpiresAt: r.ExpiresAt,
		TransactionID: r.TransactionID, SenderID: strconv.FormatInt(r.SenderID, 10), CreatedAt: r.CreatedAt,
		CompletedAt: r.CompletedAt, Locale: r.Locale,
	}
	if r.EmbedOrigin != "" {
		out.Embed = &roomEmbedJSON{Origin: r.EmbedOrigin}
	}
	return out
}

// createdRoomJSON is the answer to operation B: the room with its URL,
// which only this answer carries (the API route and the MCP tool
// create_markup_room).
func (h *apiHandler) createdRoomJSON(created *models.CreatedRoom) roomJSON {
	out := h.roomJSON(created.Room)
	out.URL = h.cfg.BaseURL + models.RoomURLPath(created.Token)
	return out
}

// createRoom is operation B: POST /api/v1/markup-rooms → 200 with the room URL.
func (h *apiHandler) createRoom(c *gin.Context) error {
	body, err := h.readJSONRequest(c)
	if err != nil {
		return err
	}
	return h.withIdempotency(c, body, func() error {
		in, err := models.ParseRoomInput(body)
		if err != nil {
			return err
		}
		created, err := h.rooms.CreateRoom(c.Request.Context(), principalFrom(c).Actor(), in)
		if err != nil {
			return err
		}
		out := h.createdRoomJSON(created)
		c.Header("Cache-Control", "no-store")
		c.Header("Location", route.APIRoom.Path(created.Room.ID))
		c.JSON(http.StatusOK, out)
		return nil
	})
}

func (h *apiHandler) getRoom(c *gin.Context) error {
	r, err := h.rooms.GetRoom(c.Request.Context(), principalFrom(c).Organization.ID, c.Param("id"))
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, h.roomJSON(r))
	return nil
}

func (h *apiHandler) listRooms(c *gin.Context) error {
	f := models.RoomFilter{Status: c.Query("status"), Cursor: c.Query("cursor")}
	limit, err := queryLimit(c)
	if err != nil {
		return err
	}
	f.Limit = limit
	rooms, next, err := h.rooms.ListRooms(c.Request.Context(), principalFrom(c).Organization.ID, f)
	if err != nil {
		return err
	}
	items := make([]roomJSON, len(rooms))
	for i := range rooms {
		items[i] = h.roomJSON(&rooms[i])
	}
	body := gin.H{"items": items}
	if next != "" {
		body["nextCursor"] = next
	}
	c.JSON(http.StatusOK, body)
	return nil
}
