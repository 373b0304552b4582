package models

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"

	"gorm.io/gorm/clause"

	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/pdf/detect"
)

// RoomSuggestion is a suggested field the Markup Room offers on one of its
// documents: a printed label next to a blank (detect.SourceLabel) that the
// room's user has not dismissed. The room places nothing for it until the
// user accepts it (a tag created at its box); a tag covering it hides it in
// the editor, so an accepted suggestion is not offered again and comes back
// when that tag is undone.
type RoomSuggestion struct {
	detect.DetectedTag
	// Key names the suggestion on its page (SuggestionKey).
	Key string
}

// SuggestionKey names a suggested field on its page by its type and box,
// rounded to a tenth of a point: a document gives the same keys every time it
// is read, and a new version of it after a page edit the same keys for the
// pages it kept.
func SuggestionKey(t detect.DetectedTag) string {
	n := func(v float64) string { return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64) }
	return t.Type + "@" + n(t.X) + "," + n(t.Y) + "," + n(t.Width) + "," + n(t.Height)
}

// MaxSuggestionDecisions bounds the entries of one request deciding
// suggested fields (dismiss + restore together).
const MaxSuggestionDecisions = MaxTagBatchChanges

// SuggestionRef names one suggested field of a room: its document's position,
// its page and its key.
type SuggestionRef struct {
	DocumentPosition int
	Page             int
	Key              string
}

// SuggestionDecisions are suggested fields a room's user dismisses, and
// dismissed ones offered again (the undo of a dismissal).
type SuggestionDecisions struct {
	Dismiss, Restore []SuggestionRef
}

// ParseSuggestionDecisions reads the JSON body of POST
// /rooms/{id}/suggestions:
//
//	{"dismiss": [{"documentPosition": 0, "page": 2, "key": "<type code>@72,96,180,20"}],
//	 "restore": [...]}
//
// Syntax, types and unknown fields are 400; no entry (empty_request) and
// more than MaxSuggestionDecisions entries (too_many_changes) are 422.
func ParseSuggestionDecisions(body []byte) (*SuggestionDecisions, error) {
	var p Problems
	o, ok := parseBody(&p, body)
	if !ok {
		return nil, p.Err(KindInvalid, "problem.summary.request_json")
	}
	dismiss, _ := o.array("dismiss", false, 0)
	restore, _ := o.array("restore", false, 0)
	o.finish()
	if err := p.Err(KindInvalid, "problem.summary.request_invalid"); err != nil {
		return nil, err
	}
	switch n := len(dismiss) + len(restore); {
	case n == 0:
		return nil, Unprocessable("#", "empty_request", "problem.suggestion.empty")
	case n > MaxSuggestionDecisions:
		return nil, Unprocessable("#", "too_many_changes", "problem.suggestion.too_many", "entries", n, "max", MaxSuggestionDecisions)
	}
	read := func(base string, nodes []jsonNode) []SuggestionRef {
		out := make([]SuggestionRef, 0, len(nodes))
		for i, node := range nodes {
			e, ok := readObject(&p, pointer(base, i), node)
			if !ok {
				continue
			}
			var r SuggestionRef
			r.DocumentPosition, _ = e.integer("documentPosition", true, 0, MaxDocuments-1)
			r.Page, _ = e.integer("page", true, 1, pdf.MaxPages)
			r.Key, _ = e.str("key", true, MaxShortTextLength)
			e.finish()
			out = append(out, r)
		}
		return out
	}
	d := &SuggestionDecisions{Dismiss: read("#/dismiss", dismiss), Restore: read("#/restore", restore)}
	if err := p.Err(KindInvalid, "problem.summary.request_invalid"); err != nil {
		return nil, err
	}
	return d, nil
}

// dismissedSuggestion is a suggested field a room no longer offers.
type dismissedSuggestion struct {
	RoomID     string    `gorm:"column:room_id;primaryKey"`
	DocumentID string    `gorm:"column:document_id;primaryKey"`
	Page       int       `gorm:"column:page;primaryKey"`
	Suggestion string    `gorm:"column:suggestion;primaryKey"`
	CreatedAt  time.Time `gorm:"column:created_at;autoCreateTime:false"`
}

// TableName implements gorm's tabler.
func (dismissedSuggestion) TableName() string { return "room_dismissed_suggestions" }

// DecideRoomSuggestions dismisses suggested fields of a room and offers
// dismissed ones again, in one database transaction, with the tag edits'
// checks (room open, documents.edit). A dismissed entry must name a
// suggestion its document holds (404 at the entry otherwise); restoring one
// that is not dismissed changes nothing. The transaction, its version and
// its history are not touched: suggestions are the room's, not the session's.
func (s *Store) DecideRoomSuggestions(ctx context.Context, roomID string, d *SuggestionDecisions) error {
	return s.editRoomTag(ctx, roomID, func(e *tagEditor) error {
		docs := map[int]*roomDocument{}
		var missing Problems
		// resolve returns the document an entry names, nil (and a problem) when there is none.
		resolve := func(base string, i int, r SuggestionRef) (*roomDocument, error) {
			doc, ok := docs[r.DocumentPosition]
			if !ok {
				var err error
				if doc, err = e.document(ctx, r.DocumentPosition); err != nil && !errors.Is(err, ErrNotFound) {
					return nil, err
				}
				docs[r.DocumentPosition] = doc
			}
			if doc == nil {
				missing.Add(pointer(pointer(base, i), "documentPosition"), "unknown_document", "problem.tx.no_document_at", "position", r.DocumentPosition)
			}
			return doc, nil
		}
		now := e.tx.Now().UTC()
		rows := make([]dismissedSuggestion, 0, len(d.Dismiss))
		for i, r := range d.Dismiss {
			doc, err := resolve("#/dismiss", i, r)
			if err != nil {
				return err
			}
			if doc == nil {
				continue
			}
			found, err := doc.suggested()
			if err != nil {
				return err
			}
			if _, ok := findSuggestion(found, r.Page, r.Key); !ok {
				missing.Add(pointer("#/dismiss", i), "unknown_suggestion", "problem.suggestion.unknown_in", "page", r.Page, "document", r.DocumentPosition+1, "key", Quoted(truncateForDetail(r.Key)))
				continue
			}
			rows = append(rows, dismissedSuggestion{RoomID: e.room.ID, DocumentID: doc.upload.ID, Page: r.Page, Suggestion: r.Key, CreatedAt: now})
		}
		restore := make([]dismissedSuggestion, 0, len(d.Restore))
		for i, r := range d.Restore {
			doc, err := resolve("#/restore", i, r)
			if err != nil {
				return err
			}
			if doc != nil {
				restore = append(restore, dismissedSuggestion{RoomID: e.room.ID, DocumentID: doc.upload.ID, Page: r.Page, Suggestion: r.Key})
			}
		}
		if err := missing.Err(KindNotFound, "problem.summary.suggestions_missing"); err != nil {
			return err
		}
		if len(rows) > 0 {
			if err := e.tx.db.WithContext(ctx).Clauses(clause.OnConflict{DoNothing: true}).CreateInBatches(rows, 500).Error; err != nil {
				return mapDBError(err)
			}
		}
		for _, r := range restore {
			if err := e.tx.db.WithContext(ctx).Where("room_id = ? AND document_id = ? AND page = ? AND suggestion = ?", r.RoomID, r.DocumentID, r.Page, r.Suggestion).
				Delete(&dismissedSuggestion{}).Error; err != nil {
				return mapDBError(err)
			}
		}
		suggestionEvents(ctx, e, d)
		return e.tx.audit(roomAuditContext(ctx, e.room), AuditEntry{OrganizationID: e.room.OrganizationID,
			Action: "room.suggestions_decided", TargetType: "room", TargetID: e.room.ID, TransactionID: e.t.ID,
			Summary: fmt.Sprintf("Dismissed %s and restored %s", count(len(rows), "suggested field"), count(len(restore), "suggested field"))})
	})
}

// findSuggestion returns the suggested field of found on page whose key is key.
func findSuggestion(found []detect.DetectedTag, page int, key string) (detect.DetectedTag, bool) {
	for _, t := range found {
		if t.Page == page && SuggestionKey(t) == key {
			return t, true
		}
	}
	return detect.DetectedTag{}, false
}

// acceptedSuggestion returns the customData of a tag that accepts the
// suggested field key on page of d: the label it came from, as
// placedTags records a text tag's. A key the page does not hold is a 422 at ptr.
func acceptedSuggestion(d *roomDocument, page int, key, ptr string) (RawJSON, error) {
	found, err := d.suggested()
	if err != nil {
		return nil, err
	}
	if t, ok := findSuggestion(found, page, key); ok {
		return detectedCustomData(t)
	}
	return nil, Unprocessable(ptr, "unknown_suggestion", "problem.suggestion.unknown", "page", page, "key", Quoted(truncateForDetail(key)))
}

// suggested returns the suggested fields of the document's upload, read
// from its detection once per edit (a batch may accept many).
func (d *roomDocument) suggested() ([]detect.DetectedTag, error) {
	if d.suggestions == nil {
		found, err := suggestionsOf(d.upload)
		if err != nil {
			return nil, err
		}
		d.suggestions = append([]detect.DetectedTag{}, found...) // not nil: read
	}
	return d.suggestions, nil
}

// suggestionsOf returns the suggested fields of a document's detection (none
// when it has not been computed).
func suggestionsOf(d *Document) ([]detect.DetectedTag, error) {
	found, err := d.storedDetection()
	if err != nil || found == nil {
		return nil, err
	}
	var out []detect.DetectedTag
	for _, t := range found.Tags {
		if t.Source == detect.SourceLabel {
			out = append(out, t)
		}
	}
	return out, nil
}

// roomSuggestions returns, by document position, the suggested fields a room
// offers: those of its documents' detections that were not dismissed; none
// when nobody could accept them (the room is not open, or its
// config.documents.edit or detectTags is false), without reading anything.
// The dismissals are read only when a document has suggestions.
func (s *Store) roomSuggestions(ctx context.Context, room *Room, t *Transaction, uploads map[string]*Document) (map[int][]RoomSuggestion, error) {
	if !room.Config.Documents.DetectTags || !room.Config.Allows(ActionEditTags) || room.Status(s.Now()) != RoomOpen {
		return nil, nil
	}
	found := map[int][]detect.DetectedTag{}
	var ids []string
	for _, d := range t.Documents {
		up := uploads[d.DocumentID]
		if up == nil {
			continue
		}
		tags, err := suggestionsOf(up)
		if err != nil {
			return nil, err
		}
		if len(tags) > 0 {
			found[d.Position] = tags
			ids = append(ids, up.ID)
		}
	}
	if len(found) == 0 {
		return nil, nil
	}
	var rows []dismissedSuggestion
	if err := s.db.WithContext(ctx).Where("room_id = ? AND document_id IN ?", room.ID, ids).Find(&rows).Error; err != nil {
		return nil, mapDBError(err)
	}
	type dismissal struct {
		doc  string
		page int
		key  string
	}
	gone := make(map[dismissal]bool, len(rows))
	for _, r := range rows {
		gone[dismissal{r.DocumentID, r.Page, r.Suggestion}] = true
	}
	out := make(map[int][]RoomSuggestion, len(found))
	for _, d := range t.Documents {
		for _, tag := range found[d.Position] {
			key := SuggestionKey(tag)
			if !gone[dismissal{uploads[d.DocumentID].ID, tag.Page, key}] {
				out[d.Position] = append(out[d.Position], RoomSuggestion{DetectedTag: tag, Key: key})
			}
		}
	}
	return out, nil
}

// carryDismissals copies a room's dismissals of a document version to the
// version a page edit made of it, each on the page its page became (pageOf
// returns 0 for a page the edit removed). The old version keeps its rows, so
// undoing the edit finds them again.
func (s *Store) carryDismissals(ctx context.Context, roomID, from, to string, pageOf func(int) int) error {
	var rows []dismissedSuggestion
	if err := s.db.WithContext(ctx).Where("room_id = ? AND document_id = ?", roomID, from).Find(&rows).Error; err != nil {
		return mapDBError(err)
	}
	moved := rows[:0]
	for _, r := range rows {
		if p := pageOf(r.Page); p > 0 {
			r.DocumentID, r.Page = to, p
			moved = append(moved, r)
		}
	}
	if len(moved) == 0 {
		return nil
	}
	return mapDBError(s.db.WithContext(ctx).Clauses(clause.OnConflict{DoNothing: true}).CreateInBatches(moved, 500).Error)
}

// suggestionEvents queues the room events of decided suggestions: one
// suggestions_dismissed and one suggestions_restored, each naming its
// suggestions by document position, page and key.
func suggestionEvents(ctx context.Context, e *tagEditor, d *SuggestionDecisions) {
	type ref struct {
		Document int    `json:"document"`
		Page     int    `json:"page"`
		Key      string `json:"key"`
	}
	type data struct {
		Suggestions []ref `json:"suggestions"`
	}
	for _, part := range []struct {
		typ  string
		refs []SuggestionRef
	}{{RoomEventSuggestionsDismissed, d.Dismiss}, {RoomEventSuggestionsRestored, d.Restore}} {
		if len(part.refs) == 0 {
			continue
		}
		out := data{Suggestions: make([]ref, len(part.refs))}
		for i, r := range part.refs {
			out.Suggestions[i] = ref{Document: r.DocumentPosition, Page: r.Page, Key: r.Key}
		}
		e.tx.roomEvent(ctx, e.t.ID, part.typ, out)
	}
}
