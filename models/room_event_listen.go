package models

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/stdlib"
)

// ListenRoomEvents feeds the hub with the room events every instance
// commits, until ctx ends: on PostgreSQL one connection of the pool LISTENs
// to roomEventsChannel (each committed transaction notifies its rooms' last
// numbers; the hub reads the bodies from the table) and to
// roomPresenceChannel (a room whose presence changed). A lost connection is
// opened again after a second, and every stream then reads the table
// itself, since notifications may have been missed meanwhile. On SQLite
// (one process) it returns at once: the commits of this process tell the
// hub themselves.
func (s *Store) ListenRoomEvents(ctx context.Context) {
	if s.dialect != DialectPostgres {
		return
	}
	for ctx.Err() == nil {
		err := s.listenOnce(ctx)
		if ctx.Err() != nil {
			return
		}
		if s.log != nil {
			s.log.Warn("room events: listening stopped; again in a second", "error", err)
		}
		s.hub.lagEverything()
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Second):
		}
	}
}

// listenOnce listens on one connection until it fails or ctx ends.
func (s *Store) listenOnce(ctx context.Context) error {
	sqlDB, err := s.db.DB()
	if err != nil {
		return err
	}
	conn, err := sqlDB.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(driverConn any) error {
		c, ok := driverConn.(*stdlib.Conn)
		if !ok {
			return errors.New("room events: not a pgx connection")
		}
		pg := c.Conn()
		if _, err := pg.Exec(ctx, "LISTEN "+roomEventsChannel+"; LISTEN "+roomPresenceChannel); err != nil {
			return err
		}
		// Whatever was committed before LISTEN took effect is read by the
		// streams themselves.
		s.hub.lagEverything()
		s.hub.listening.Store(true)
		defer s.hub.listening.Store(false)
		defer func() {
			if ctx.Err() == nil {
				_, _ = pg.Exec(context.WithoutCancel(ctx), "UNLISTEN *")
			}
		}()
		for {
			n, err := pg.WaitForNotification(ctx)
			if err != nil {
				if ctx.Err() != nil {
					// The connection may be mid-message: the pool must not reuse it.
					_ = pg.Close(context.WithoutCancel(ctx))
				}
				return err
			}
			if n.Channel == roomPresenceChannel {
				s.hub.presenceChanged(n.Payload)
			} else if e, ok := parseRoomNotification(n.Payload); ok {
				s.hub.published([]committedRoomEvent{e})
			}
		}
	})
}

// parseRoomNotification reads a notification's "<room id> <seq>".
func parseRoomNotification(payload string) (committedRoomEvent, bool) {
	room, seq, ok := strings.Cut(payload, " ")
	n, err := strconv.ParseInt(seq, 10, 64)
	if !ok || room == "" || err != nil {
		return committedRoomEvent{}, false
	}
	return committedRoomEvent{roomID: room, seq: n}, true
}
