package handlers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-contrib/sessions"
	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/models"
)

// RoomEventStore reads a room's committed events and follows new ones.
type RoomEventStore interface {
	RoomByID(ctx context.Context, id string) (*models.Room, error)
	RoomEventsAfter(ctx context.Context, roomID string, after int64, limit int) ([]models.RoomEvent, error)
	SubscribeRoomEvents(roomID string, after int64) (*models.RoomSubscription, error)
	JoinRoomPresence(ctx context.Context, roomID, session string) error
	LeaveRoomPresence(ctx context.Context, roomID, session string) error
	TouchRoomPresence(ctx context.Context, roomID, session string) error
	RoomPresence(ctx context.Context, roomID string) ([]models.RoomPresent, error)
	SelectInRoomPresence(ctx context.Context, roomID, session string, tagIDs []string) error
}

// Timings of a room's event stream.
const (
	// streamHeartbeat is how often an idle stream sends a comment, so that
	// proxies keep it and a half-open connection is found out.
	streamHeartbeat = 15 * time.Second
	// streamWriteTimeout closes a stream whose client reads nothing.
	streamWriteTimeout = 30 * time.Second
	// streamRetry is the reconnection delay the stream asks EventSource for.
	streamRetry = 2 * time.Second
	// streamReadBatch is how many events one read of the table takes.
	streamReadBatch = 500
)

// roomEventStream is one GET /rooms/:id/events in progress.
type roomEventStream struct {
	c    *gin.Context
	rc   *http.ResponseController
	last int64
	// session is the stream's room session (its short id); presence the
	// last presence event it sent (one is sent only when it differs).
	session, presence string
}

// roomEvents serves a room's events as Server-Sent Events (docs/live.md):
// to the browser session that opened the room (its cookie, or an embedded
// room's session in the stream's address); from the Last-Event-ID header
// (or the lastEventId parameter) on, else from now; a number no longer
// kept is `event: reset`. A completed or expired room sends its final event
// and closes.
func (h *roomHandler) roomEvents(c *gin.Context) error {
	id, err := h.boundRoomID(c)
	if err != nil {
		return err
	}
	ctx := c.Request.Context()
	room, err := h.events.RoomByID(ctx, id)
	if err != nil {
		return err
	}
	status := room.Status(h.clock.Now())
	if status == models.RoomExpired {
		return models.ErrRoomExpired
	}
	after, reset := lastEventID(c, room.EventSeq)
	sub, err := h.events.SubscribeRoomEvents(id, after)
	if err != nil {
		return err
	}
	defer sub.Close()
	s := &roomEventStream{c: c, rc: http.NewResponseController(c.Writer), last: after,
		session: models.ShortSessionID(rateSessionID(sessions.Default(c)))}
	h2 := c.Writer.Header()
	h2.Set("Content-Type", "text/event-stream")
	h2.Set("X-Accel-Buffering", "no")
	c.Status(http.StatusOK)
	if err := s.write(fmt.Sprintf("retry: %d\n\n", streamRetry.Milliseconds())); err != nil {
		return nil
	}
	if reset {
		if err := s.reset(room.EventSeq); err != nil {
			return nil
		}
	}
	if done, err := h.catchUp(ctx, s, id); done || err != nil {
		return nil
	}
	if status == models.RoomCompleted {
		_ = s.event(models.RoomEvent{Seq: s.last, Type: models.RoomEventRoomCompleted, Data: "{}"})
		return nil
	}
	// The session is here while its stream is open (on any instance); the others hear of it.
	if err := h.events.JoinRoomPresence(ctx, id, s.session); err != nil {
		return nil
	}
	defer func() {
		leave, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		_ = h.events.LeaveRoomPresence(leave, id, s.session)
	}()
	if err := h.sendPresence(ctx, s, id); err != nil {
		return nil
	}
	h.follow(ctx, s, sub, id, room.ExpiresAt)
	return nil
}

// sendPresence sends who has the room open (the stream's own session
// named as you), unless the stream sent just that last time.
func (h *roomHandler) sendPresence(ctx context.Context, s *roomEventStream, id string) error {
	people, err := h.events.RoomPresence(ctx, id)
	if err != nil {
		return err
	}
	body, err := json.Marshal(struct {
		You    string               `json:"you"`
		People []models.RoomPresent `json:"people"`
	}{s.session, people})
	if err != nil || string(body) == s.presence {
		return err
	}
	s.presence = string(body)
	// No id: a presence event is not one of the room's numbered changes.
	return s.write("event: presence\ndata: " + s.presence + "\n\n")
}

// follow sends the room's events as the hub hands them over, a heartbeat
// when idle, until the client goes, the room ends or the server shuts down.
func (h *roomHandler) follow(ctx context.Context, s *roomEventStream, sub *models.RoomSubscription, id string, expires time.Time) {
	heartbeat := time.NewTicker(streamHeartbeat)
	defer heartbeat.Stop()
	expiry := time.NewTimer(max(expires.Sub(h.clock.Now()), 0))
	defer expiry.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-sub.Closed:
			return
		case e := <-sub.Events:
			if e.Seq <= s.last {
				continue
			}
			if e.Seq > s.last+1 { // some did not come through the hub: read them
				if done, err := h.catchUp(ctx, s, id); done || err != nil {
					return
				}
				continue
			}
			if err := s.event(e); err != nil || final(e.Type) {
				return
			}
		case <-sub.Lagged:
			if done, err := h.catchUp(ctx, s, id); done || err != nil {
				return
			}
		case <-sub.Presence:
			if err := h.sendPresence(ctx, s, id); err != nil {
				return
			}
		case <-heartbeat.C:
			if err := s.write(": heartbeat\n\n"); err != nil {
				return
			}
			// Still here; and whoever's instance stopped without a word has gone meanwhile.
			if h.events.TouchRoomPresence(ctx, id, s.session) != nil || h.sendPresence(ctx, s, id) != nil {
				return
			}
		case <-expiry.C:
			_ = s.event(models.RoomEvent{Seq: s.last, Type: models.RoomEventRoomExpired, Data: "{}"})
			return
		}
	}
}

// catchUp sends the room's events after the stream's last one from the
// table; done is true when the last one sent ends the stream.
func (h *roomHandler) catchUp(ctx context.Context, s *roomEventStream, id string) (done bool, err error) {
	for {
		events, err := h.events.RoomEventsAfter(ctx, id, s.last, streamReadBatch)
		if err != nil {
			return false, err
		}
		if len(events) > 0 && events[0].Seq != s.last+1 {
			// The ones after s.last are no longer kept: start again from the newest.
			if err := s.reset(events[len(events)-1].Seq); err != nil {
				return false, err
			}
			continue
		}
		for _, e := range events {
			if err := s.event(e); err != nil {
				return false, err
			}
			if final(e.Type) {
				return true, nil
			}
		}
		if len(events) < streamReadBatch {
			return false, nil
		}
	}
}

// final tells whether an event of type typ ends the room, and its streams.
func final(typ string) bool {
	return typ == models.RoomEventRoomCompleted || typ == models.RoomEventRoomExpired
}

// lastEventID is the number the stream starts after: the Last-Event-ID
// header (EventSource's on a reconnection) or the lastEventId parameter,
// else current (from now on). A number past current is reset.
func lastEventID(c *gin.Context, current int64) (after int64, reset bool) {
	v := c.GetHeader("Last-Event-ID")
	if v == "" {
		v = c.Query("lastEventId")
	}
	if v == "" {
		return current, false
	}
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil || n < 0 || n > current {
		return current, true
	}
	return n, false
}

// reset tells the client to read the room again (what it missed is no
// longer kept) and goes on from number seq.
func (s *roomEventStream) reset(seq int64) error {
	s.last = seq
	return s.write("event: reset\nid: " + strconv.FormatInt(seq, 10) + "\ndata: {}\n\n")
}

// event sends one event: its type, number and data, and who made it (the
// session's short id and the page's id, so that a page skips its own).
func (s *roomEventStream) event(e models.RoomEvent) error {
	s.last = max(s.last, e.Seq)
	data := e.Data
	if data == "" {
		data = "{}"
	}
	body, err := json.Marshal(struct {
		Session string          `json:"session"`
		Client  string          `json:"client"`
		Data    json.RawMessage `json:"data"`
	}{e.Session, e.Client, json.RawMessage(data)})
	if err != nil {
		return err
	}
	return s.write("event: " + e.Type + "\nid: " + strconv.FormatInt(e.Seq, 10) + "\ndata: " + string(body) + "\n\n")
}

// write sends text and flushes it, within streamWriteTimeout.
func (s *roomEventStream) write(text string) error {
	_ = s.rc.SetWriteDeadline(time.Now().Add(streamWriteTimeout))
	if _, err := s.c.Writer.WriteString(text); err != nil {
		return err
	}
	if err := s.rc.Flush(); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return err
	}
	return nil
}

// maxPresenceBody bounds a selection's body: MaxPresenceSelected ids.
const maxPresenceBody = 8 << 10

// roomPresenceSelect records the tags this browser's session has selected
// (POST /rooms/{id}/presence, {"selected": [ids]}), which the room's other
// windows outline in its colour (docs/live.md, "Presence"); 204.
func (h *roomHandler) roomPresenceSelect(c *gin.Context) error {
	id, body, err := h.roomJSONPost(c, maxPresenceBody)
	if err != nil {
		return err
	}
	ids, err := models.ParsePresenceSelection(body)
	if err != nil {
		return err
	}
	session := models.ShortSessionID(rateSessionID(sessions.Default(c)))
	if err := h.events.SelectInRoomPresence(c.Request.Context(), id, session, ids); err != nil {
		return err
	}
	c.Status(http.StatusNoContent)
	return nil
}
