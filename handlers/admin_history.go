package handlers

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/templates"
)

// historyWords says what one history entry changed, for people.
func historyWords(e models.TransactionEvent) string {
	var m map[string]any
	_ = json.Unmarshal(e.Summary, &m)
	n := func(k string) int {
		f, _ := m[k].(float64)
		return int(f)
	}
	str := func(k string) string {
		s, _ := m[k].(string)
		return s
	}
	tagName := func() string {
		if tt, ok := models.TagTypeByCode(str("type")); ok {
			return tt.Label
		}
		return "A"
	}
	doc := func() string {
		if t := str("documentTitle"); t != "" {
			return fmt.Sprintf("of “%s”", t)
		}
		return fmt.Sprintf("of document %d", n("document")+1)
	}
	switch e.Kind {
	case models.EventCreated:
		return fmt.Sprintf("Created with %s, %s and %s", templates.Plural(n("documents"), "document", "documents"), templates.Plural(n("tags"), "tag", "tags"), templates.Plural(n("participants"), "participant", "participants"))
	case models.EventReplaced:
		var parts []string
		for _, k := range []string{"documents", "tags", "participants"} {
			if c, ok := m[k].(map[string]any); ok {
				before, _ := c["before"].(float64)
				after, _ := c["after"].(float64)
				if before != after {
					parts = append(parts, fmt.Sprintf("%s %d → %d", k, int(before), int(after)))
				}
			}
		}
		if len(parts) == 0 {
			return "Replaced (same number of documents, tags and participants)"
		}
		return "Replaced: " + strings.Join(parts, ", ")
	case models.EventStatusChanged:
		return fmt.Sprintf("Status %s → %s", str("from"), str("to"))
	case models.EventTagAdded:
		return fmt.Sprintf("%s tag added on page %d %s", tagName(), n("page"), doc())
	case models.EventTagChanged:
		var what []string
		if list, ok := m["changed"].([]any); ok {
			for _, w := range list {
				what = append(what, fmt.Sprint(w))
			}
		}
		if len(what) == 0 {
			what = []string{"nothing"}
		}
		return fmt.Sprintf("%s tag on page %d %s changed: %s", tagName(), n("page"), doc(), strings.Join(what, ", "))
	case models.EventTagRemoved:
		return fmt.Sprintf("%s tag removed from page %d %s", tagName(), n("page"), doc())
	case models.EventPageDeleted:
		return fmt.Sprintf("Page %d %s deleted (%s removed with it)", n("page"), doc(), templates.Plural(n("tagsRemoved"), "tag", "tags"))
	case models.EventPageMoved:
		return fmt.Sprintf("Page %d %s moved to position %d", n("from"), doc(), n("to"))
	case models.EventDocumentAdded:
		return fmt.Sprintf("Document “%s” added (%s)", str("documentTitle"), templates.Plural(n("pages"), "page", "pages"))
	case models.EventDocumentRemoved:
		return fmt.Sprintf("Document “%s” removed with %s", str("documentTitle"), templates.Plural(n("tagsRemoved"), "tag", "tags"))
	case models.EventRoomCompleted:
		return "E-signature session created from the Markup Room"
	case models.EventInvitationsQueued:
		var to []string
		if list, ok := m["recipients"].([]any); ok {
			for _, r := range list {
				to = append(to, fmt.Sprint(r))
			}
		}
		return fmt.Sprintf("Invitations queued: %s to %s", templates.Plural(n("count"), "e-mail", "e-mails"), strings.Join(to, ", "))
	default:
		return strings.ReplaceAll(e.Kind, "_", " ")
	}
}
