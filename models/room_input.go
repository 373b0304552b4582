package models

import (
	"encoding/json"
	"strconv"
	"strings"
)

// RoomInput is a validated "Create a Markup Room" body (RoomInput in the
// OpenAPI document).
type RoomInput struct {
	Config RoomConfig
	// SenderID is the sender's user id as a string (a JSON number is read as its decimal string).
	SenderID     string
	Participants []RoomParticipantInput
	// Documents are locations (or ids, or gcsRefIds) of uploaded PDFs.
	Documents []string
	// ReferenceID is an optional extension: the referenceId of the room's transaction.
	ReferenceID *string
	// TemplateID is an optional extension: the room starts from this
	// template (docs/decisions.md, "Templates").
	TemplateID string
	// EmbedOrigin is an optional extension (embed.origin): the origin,
	// normalised, allowed to frame the room; CreateRoom checks that the
	// organization allows it.
	EmbedOrigin string
	// Locale is an optional extension: the room's language, a canonical
	// tag of i18n.Languages (nil: none; docs/i18n.md).
	Locale *string
	// template is the template TemplateID names, read by CreateRoom;
	// templateDocuments tells that Documents are its documents (the request
	// named none).
	template          *Template
	templateDocuments bool
}

// RoomParticipantInput is a participant preloaded into a room (RoomInput's
// participants in the OpenAPI document).
type RoomParticipantInput struct {
	FirstName string
	LastName  string
	Email     string
	// Role is an optional extension: the template role this participant takes.
	Role string
	// Locale is an optional extension: the participant's language.
	Locale *string
}

// ParseRoomInput decodes and checks a room request; every problem of
// syntax, type, required field, e-mail and unknown key is a 400-class
// *ValidationError listing all of them.
func ParseRoomInput(body []byte) (*RoomInput, error) {
	var p Problems
	in := parseRoomInput(&p, body)
	if err := p.Err(KindInvalid, "problem.summary.room_invalid"); err != nil {
		return nil, err
	}
	return in, nil
}

func parseRoomInput(p *Problems, body []byte) *RoomInput {
	o, ok := parseBody(p, body)
	if !ok {
		return nil
	}
	in := &RoomInput{Config: DefaultRoomConfig()}
	if c, ok := o.object("config", false); ok {
		in.Config = parseRoomConfig(c)
	}
	in.SenderID = readSenderID(o)
	if v, ok := o.str("referenceId", false, MaxShortTextLength); ok {
		in.ReferenceID = &v
	}
	if o.has("templateId") {
		in.TemplateID, _ = o.str("templateId", true, MaxShortTextLength)
	} else {
		o.field("templateId", true)
	}
	in.EmbedOrigin = readEmbed(o)
	in.Locale = o.locale("locale")
	if items, ok := o.array("documents", false, MaxDocuments); ok {
		for i, item := range items {
			if item.kind != "string" {
				p.Add(pointer(o.at("documents"), i), "invalid_type", "problem.room.location_type", "kind", item.kind)
				continue
			}
			s := decodeJSONString(item.raw)
			if strings.TrimSpace(s) == "" || len(s) > 2048 {
				p.Add(pointer(o.at("documents"), i), "invalid_location", "problem.room.location")
				continue
			}
			in.Documents = append(in.Documents, s)
		}
	}
	if items, ok := o.array("participants", false, MaxParticipants); ok {
		seen := map[string]int{}
		for i, raw := range items {
			ptr := pointer(o.at("participants"), i)
			po, ok := readObject(p, ptr, raw)
			if !ok {
				continue
			}
			var rp RoomParticipantInput
			rp.FirstName, _ = po.line("firstName", true, MaxNameLength)
			rp.LastName, _ = po.line("lastName", true, MaxNameLength)
			rp.Email = po.email("email")
			if po.has("role") {
				rp.Role, _ = po.line("role", true, MaxNameLength)
			} else {
				po.field("role", true)
			}
			rp.Locale = po.locale("locale")
			po.finish()
			if key := EmailKey(rp.Email); ValidEmail(rp.Email) {
				if first, dup := seen[key]; dup {
					p.Add(pointer(ptr, "email"), "duplicate_email", "problem.room.email_taken_by", "participant", first)
				} else {
					seen[key] = i
				}
			}
			in.Participants = append(in.Participants, rp)
		}
	}
	o.finish()
	return in
}

// readSenderID reads senderId as a string; a JSON number stands for its decimal string.
func readSenderID(o *jsonObject) string {
	raw, ok := o.raw("senderId")
	if !ok {
		o.missing("senderId")
		return ""
	}
	switch raw.kind {
	case "string":
		s, _ := o.str("senderId", true, MaxShortTextLength)
		return strings.TrimSpace(s)
	case "number":
		n := json.Number(raw.raw)
		if i, err := n.Int64(); err == nil {
			return strconv.FormatInt(i, 10)
		}
		return n.String()
	default:
		o.p.Add(o.at("senderId"), "invalid_type", "problem.room.sender_type", "kind", raw.kind)
		return ""
	}
}

// readEmbed reads the optional embed object: {"origin": "https://…"}, the
// origin checked and normalised (NormalizeEmbedOrigin) or a 400-class
// problem at #/embed/origin.
func readEmbed(o *jsonObject) string {
	e, ok := o.object("embed", false)
	if !ok {
		return ""
	}
	defer e.finish()
	raw, ok := e.str("origin", true, MaxEmbedOriginLength)
	if !ok {
		return ""
	}
	origin, code, msg := NormalizeEmbedOrigin(raw)
	if code != "" {
		o.p.AddMessage(e.at("origin"), code, msg)
	}
	return origin
}
