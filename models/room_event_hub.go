package models

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
)

// Default limits of a room's event streams (StoreOptions).
const (
	DefaultRoomStreamsPerRoom = 50
	DefaultStreamsPerInstance = 2000
	roomSubscriptionBuffer    = 256
	roomEventHubReadBatch     = 500
)

// ErrTooManyStreams refuses a room event stream past a limit (429).
var ErrTooManyStreams = errors.New("too many event streams")

// roomEventHub fans the committed events of rooms out to this instance's
// streams. It is told of a room's last sequence number after each commit
// on this instance (inTx), and on PostgreSQL of those of every instance
// (ListenRoomEvents); it reads the event bodies from the table once per
// wake-up and room, and hands them to each stream of the room. A stream
// whose buffer is full is told it lags, and reads the table itself.
type roomEventHub struct {
	read func(ctx context.Context, roomID string, after int64, limit int) ([]RoomEvent, error)

	perRoom, perInstance int

	// listening is set while this process LISTENs to the other instances'
	// notifications (ListenRoomEvents): its own presence changes then reach
	// it that way, once.
	listening atomic.Bool

	mu    sync.Mutex
	rooms map[string]*hubRoom
	total int
	// due are the rooms with events not fanned out yet: their last number.
	due    map[string]int64
	wake   chan struct{}
	closed chan struct{}
	start  sync.Once
	stop   sync.Once
	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{}
}

// hubRoom is one room's streams and the last number the hub read of it.
type hubRoom struct {
	subs map[*RoomSubscription]struct{}
	read int64
}

// RoomSubscription is one stream's place in the hub: Events receives the
// room's events in order; Lagged is signalled when some did not fit
// (read them from the table); Presence when the room's presence changed;
// Closed is closed when the hub shuts down.
type RoomSubscription struct {
	Events chan RoomEvent
	Lagged chan struct{}
	// Presence is signalled when who has the room open, or what they
	// have selected, changed (read it with RoomPresence).
	Presence chan struct{}
	Closed   <-chan struct{}
	hub      *roomEventHub
	room     string
	once     sync.Once
}

func newRoomEventHub(read func(ctx context.Context, roomID string, after int64, limit int) ([]RoomEvent, error), perRoom, perInstance int) *roomEventHub {
	if perRoom <= 0 {
		perRoom = DefaultRoomStreamsPerRoom
	}
	if perInstance <= 0 {
		perInstance = DefaultStreamsPerInstance
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &roomEventHub{read: read, perRoom: perRoom, perInstance: perInstance,
		rooms: map[string]*hubRoom{}, due: map[string]int64{}, wake: make(chan struct{}, 1),
		closed: make(chan struct{}), ctx: ctx, cancel: cancel, done: make(chan struct{})}
}

// subscribe adds a stream of room roomID that has seen its events up to
// after; past a limit it is ErrTooManyStreams, after close ErrClosed.
func (h *roomEventHub) subscribe(roomID string, after int64) (*RoomSubscription, error) {
	h.start.Do(func() { go h.run() })
	h.mu.Lock()
	defer h.mu.Unlock()
	select {
	case <-h.closed:
		return nil, errHubClosed
	default:
	}
	r := h.rooms[roomID]
	if h.total >= h.perInstance || (r != nil && len(r.subs) >= h.perRoom) {
		return nil, ErrTooManyStreams
	}
	if r == nil {
		r = &hubRoom{subs: map[*RoomSubscription]struct{}{}, read: after}
		h.rooms[roomID] = r
	}
	sub := &RoomSubscription{Events: make(chan RoomEvent, roomSubscriptionBuffer), Lagged: make(chan struct{}, 1),
		Presence: make(chan struct{}, 1), Closed: h.closed, hub: h, room: roomID}
	r.subs[sub] = struct{}{}
	h.total++
	return sub, nil
}

// errHubClosed refuses a stream while the server shuts down.
var errHubClosed = fmt.Errorf("the room event hub is closed: %w", ErrUnavailable)

// Close takes the stream out of the hub.
func (s *RoomSubscription) Close() {
	s.once.Do(func() {
		h := s.hub
		h.mu.Lock()
		defer h.mu.Unlock()
		if r := h.rooms[s.room]; r != nil {
			delete(r.subs, s)
			h.total--
			if len(r.subs) == 0 {
				delete(h.rooms, s.room)
				delete(h.due, s.room)
			}
		}
	})
}

// published tells the hub of rooms' last numbers: those with streams here
// are read and fanned out by run. It never blocks.
func (h *roomEventHub) published(events []committedRoomEvent) {
	if len(events) == 0 {
		return
	}
	h.mu.Lock()
	any := false
	for _, e := range events {
		if r := h.rooms[e.roomID]; r != nil && e.seq > r.read {
			h.due[e.roomID] = max(h.due[e.roomID], e.seq)
			any = true
		}
	}
	h.mu.Unlock()
	if any {
		select {
		case h.wake <- struct{}{}:
		default:
		}
	}
}

// run fans out the due rooms' events until the hub closes.
func (h *roomEventHub) run() {
	defer close(h.done)
	for {
		select {
		case <-h.ctx.Done():
			return
		case <-h.wake:
		}
		h.mu.Lock()
		due := h.due
		h.due = map[string]int64{}
		h.mu.Unlock()
		for roomID, upTo := range due {
			h.fanOut(roomID, upTo)
		}
	}
}

// fanOut reads room roomID's events after the hub's last one, up to upTo,
// and hands them to its streams.
func (h *roomEventHub) fanOut(roomID string, upTo int64) {
	for {
		h.mu.Lock()
		r := h.rooms[roomID]
		var after int64
		if r != nil {
			after = r.read
		}
		h.mu.Unlock()
		if r == nil || after >= upTo {
			return
		}
		events, err := h.read(h.ctx, roomID, after, roomEventHubReadBatch)
		if err != nil || len(events) == 0 {
			// The streams read the table themselves when they hear of it.
			h.lagAll(roomID)
			return
		}
		h.mu.Lock()
		if r = h.rooms[roomID]; r != nil {
			for sub := range r.subs {
				for _, e := range events {
					select {
					case sub.Events <- e:
						continue
					default:
					}
					sub.lag()
					break
				}
			}
			r.read = max(r.read, events[len(events)-1].Seq)
		}
		h.mu.Unlock()
	}
}

// lagAll tells every stream of a room to read the table itself.
func (h *roomEventHub) lagAll(roomID string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if r := h.rooms[roomID]; r != nil {
		for sub := range r.subs {
			sub.lag()
		}
	}
}

// presenceChanged tells every stream of a room here that its presence
// changed. It never blocks.
func (h *roomEventHub) presenceChanged(roomID string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if r := h.rooms[roomID]; r != nil {
		for sub := range r.subs {
			select {
			case sub.Presence <- struct{}{}:
			default:
			}
		}
	}
}

func (s *RoomSubscription) lag() {
	select {
	case s.Lagged <- struct{}{}:
	default:
	}
}

// close ends every stream (their Closed channel) and the fan-out; new
// streams are refused from then on.
func (h *roomEventHub) close() {
	h.stop.Do(func() {
		h.mu.Lock()
		close(h.closed)
		h.mu.Unlock()
		h.cancel()
	})
}

// CloseRoomStreams ends every room event stream of this instance and
// refuses new ones: the graceful shutdown calls it first, so that the
// streams do not hold the server's shutdown until its grace runs out.
func (s *Store) CloseRoomStreams() { s.hub.close() }

// SubscribeRoomEvents starts a stream of room roomID's events after
// number after (the caller reads those up to now from RoomEventsAfter,
// then takes the rest from the subscription). Past the limits it is
// ErrTooManyStreams.
func (s *Store) SubscribeRoomEvents(roomID string, after int64) (*RoomSubscription, error) {
	return s.hub.subscribe(roomID, after)
}

// roomEventsCommitted tells the hub of a committed transaction's rooms.
func (s *Store) roomEventsCommitted(events []committedRoomEvent) {
	if s.hub != nil {
		s.hub.published(events)
	}
}

// RoomEventsAfter reads up to limit of room roomID's events numbered after
// after, in order.
func (s *Store) RoomEventsAfter(ctx context.Context, roomID string, after int64, limit int) ([]RoomEvent, error) {
	var out []RoomEvent
	err := s.db.WithContext(ctx).Where("room_id = ? AND seq > ?", roomID, after).Order("seq").Limit(limit).Find(&out).Error
	return out, mapDBError(err)
}

// lagEverything tells every stream of this instance to read the table
// itself (after the notifications may have been missed).
func (h *roomEventHub) lagEverything() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, r := range h.rooms {
		for sub := range r.subs {
			sub.lag()
		}
	}
}
