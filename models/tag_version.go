package models

import (
	"strconv"
	"strings"
)

// Tag versions keep two windows of one room from overwriting each other
// (docs/live.md). Every tag has a Version: 1 when placed, more at each
// change of it (its fields, its page, its document's place). An edit may
// name the version it was made against; an edit of a tag that has moved on
// since is refused with a TagChangedError carrying the tag as it is now, and
// changes nothing. An edit that names no version is not checked (the API's
// whole-transaction replace, and older editors).

// TagChangedError refuses room tag edits made against older versions of
// their tags: 409, code tag_changed, each tag as it is now.
type TagChangedError struct {
	Conflicts []TagConflict
}

// TagConflict is one stale edit of a TagChangedError: where the request
// named the tag ("#/version", "#/update/2/version") and the tag now.
type TagConflict struct {
	Pointer string
	Current Tag
}

// Error implements error: the tags' ids, for a log line.
func (e *TagChangedError) Error() string {
	ids := make([]string, len(e.Conflicts))
	for i, c := range e.Conflicts {
		ids[i] = c.Current.TagID
	}
	return "tag changed since it was read: " + strings.Join(ids, ", ")
}

// ParseTagVersion reads the version an edit names (a form field or a query
// parameter): 0 when absent (not checked), else a positive whole number;
// anything else is a 400 at pointer.
func ParseTagVersion(s, pointer string) (int, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return 0, Invalid(pointer, "invalid_version", "problem.room.tag_version", "value", Quoted(truncateForDetail(s)))
	}
	return n, nil
}

// staleTag adds to conflicts the tag stored when the edit named another
// version of it (want 0: not checked).
func staleTag(conflicts []TagConflict, pointer string, stored *Tag, want int) []TagConflict {
	if want != 0 && stored.Version != want {
		conflicts = append(conflicts, TagConflict{Pointer: pointer, Current: *stored})
	}
	return conflicts
}

// tagChangedErr is the refusal of conflicts, or nil when there are none.
func tagChangedErr(conflicts []TagConflict) error {
	if len(conflicts) == 0 {
		return nil
	}
	return &TagChangedError{Conflicts: conflicts}
}

// carryTagVersions gives each tag of t, which replaces old, its version: a
// tag old holds with the same id keeps its version when nothing of it
// changed and takes the next one when something did; a tag old does not
// show (a new one, or a replace that did not read old's tags) takes t's
// new version, which no tag of old can have reached (a tag's version moves
// only with its transaction's, never past it).
func carryTagVersions(old, t *Transaction) {
	before := map[string]*Tag{}
	for i := range old.Documents {
		for j := range old.Documents[i].Tags {
			tag := &old.Documents[i].Tags[j]
			before[tag.TagID] = tag
		}
	}
	for i := range t.Documents {
		for j := range t.Documents[i].Tags {
			tag := &t.Documents[i].Tags[j]
			switch was, ok := before[tag.TagID]; {
			case !ok:
				tag.Version = t.Version
			case sameTag(was, tag):
				tag.Version, tag.NeedsLook = was.Version, was.NeedsLook
			default:
				tag.Version = was.Version + 1
			}
		}
	}
}

// sameTag tells whether b says what a says: the same fields, on the same
// page of the same document.
func sameTag(a, b *Tag) bool {
	return a.DocumentPosition == b.DocumentPosition && a.Type == b.Type && a.X == b.X && a.Y == b.Y &&
		a.Width == b.Width && a.Height == b.Height && a.SignerID == b.SignerID && a.Page == b.Page &&
		string(a.CustomData.orEmpty()) == string(b.CustomData.orEmpty()) && equalPtr(a.Required, b.Required) &&
		equalPtr(a.StateFormat, b.StateFormat) && equalPtr(a.DateFormat, b.DateFormat) && equalPtr(a.FontSize, b.FontSize)
}
