package models

import (
	"context"
	"encoding/base64"
	"slices"
	"strconv"
	"strings"
)

// auditCursorPrefix marks an audit cursor's text, so a cursor of another
// list (a transaction id's) never reads as one.
const auditCursorPrefix = "audit:"

// EncodeAuditCursor is the API's cursor of a page of audit events that
// ends at the event whose id is id: opaque to callers (unpadded base64url).
func EncodeAuditCursor(id int64) string {
	return base64.RawURLEncoding.EncodeToString([]byte(auditCursorPrefix + strconv.FormatInt(id, 10)))
}

// ParseAuditCursor reads a cursor EncodeAuditCursor made; any other text
// (another encoding of the same id included) is refused.
func ParseAuditCursor(cursor string) (int64, bool) {
	b, err := base64.RawURLEncoding.Strict().DecodeString(cursor)
	if err != nil {
		return 0, false
	}
	digits, ok := strings.CutPrefix(string(b), auditCursorPrefix)
	if !ok {
		return 0, false
	}
	id, ok := ParseRowID(digits)
	if !ok || EncodeAuditCursor(id) != cursor {
		return 0, false
	}
	return id, true
}

// auditActionsWindow is how many of the newest events RecentAuditActions
// reads: a bounded read whatever the trail's length (audit_events has no
// index on action).
const auditActionsWindow = 5000

// RecentAuditActions lists, sorted, the distinct actions of the newest
// events (at most auditActionsWindow of them), each preceded by its prefix
// ("participant." before "participant.added"): the console offers them in
// its action filter.
func (s *Store) RecentAuditActions(ctx context.Context) ([]string, error) {
	var actions []string
	sub := s.db.WithContext(ctx).Model(&AuditEvent{}).Select("action").Order("id DESC").Limit(auditActionsWindow)
	if err := s.db.WithContext(ctx).Table("(?) AS recent", sub).Distinct("action").Pluck("action", &actions).Error; err != nil {
		return nil, mapDBError(err)
	}
	out := make([]string, 0, 2*len(actions))
	for _, a := range actions {
		out = append(out, a)
		if i := strings.LastIndexByte(a, '.'); i > 0 {
			out = append(out, a[:i+1])
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}
