package models

import (
	"context"
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// Bounds on an organization's allowed embedding origins (docs/decisions.md,
// "Embedded rooms").
const (
	// ActivityEmbedOrigins is the console activity of a change to the list.
	ActivityEmbedOrigins = "embed origins"
	// MaxEmbedOrigins is how many origins one organization may allow.
	MaxEmbedOrigins = 20
	// MaxEmbedOriginLength bounds one origin as written.
	MaxEmbedOriginLength = 255
)

// NormalizeEmbedOrigin reads raw as an origin a room may be framed by: an
// exact https://host[:port] (http:// only for a loopback host: 127.0.0.1,
// [::1], localhost), no path, query, fragment, user or wildcard. The host
// is lower-cased and a default port dropped. A refusal is a code and a
// sentence saying what is wrong.
func NormalizeEmbedOrigin(raw string) (origin, code string, msg Message) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return "", "required", Msg("problem.origin.required")
	}
	if len(raw) > MaxEmbedOriginLength {
		return "", "too_long", Msg("problem.origin.too_long", "max", MaxEmbedOriginLength)
	}
	if strings.ContainsAny(raw, "* \t\r\n\x00") {
		return "", "invalid_origin", Msg("problem.origin.exact")
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.Opaque != "" {
		return "", "invalid_origin", Msg("problem.origin.form")
	}
	if u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || strings.HasSuffix(raw, "?") || strings.HasSuffix(raw, "#") {
		return "", "invalid_origin", Msg("problem.origin.parts")
	}
	scheme := strings.ToLower(u.Scheme)
	host := strings.ToLower(u.Hostname())
	if host == "" || strings.HasSuffix(host, ".") || !asciiHost(host) {
		return "", "invalid_origin", Msg("problem.origin.host")
	}
	switch {
	case scheme == "https":
	case scheme == "http" && loopbackHost(host):
	case scheme == "http":
		return "", "insecure_origin", Msg("problem.origin.insecure")
	default:
		return "", "invalid_origin", Msg("problem.origin.scheme")
	}
	port := u.Port()
	if port != "" {
		n, err := strconv.Atoi(port)
		if err != nil || n < 1 || n > 65535 || strings.HasPrefix(port, "0") {
			return "", "invalid_origin", Msg("problem.origin.port")
		}
		if (scheme == "https" && n == 443) || (scheme == "http" && n == 80) {
			port = ""
		}
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	origin = scheme + "://" + host
	if port != "" {
		origin += ":" + port
	}
	return origin, "", Message{}
}

// asciiHost tells whether host is a name of letters, digits, dots and
// hyphens, or an IP address.
func asciiHost(host string) bool {
	if net.ParseIP(host) != nil {
		return true
	}
	for _, r := range host {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' || r == '-') {
			return false
		}
	}
	return !strings.Contains(host, "..")
}

// loopbackHost tells whether host is this machine: the only hosts whose
// origins may be http://.
func loopbackHost(host string) bool {
	return host == "localhost" || host == "127.0.0.1" || host == "::1"
}

// ParseEmbedOrigins checks and normalises a list of origins; duplicates
// (after normalising) are kept once. Every problem is reported at
// #/embedOrigins/<index>.
func ParseEmbedOrigins(raw []string) ([]string, error) {
	var p Problems
	if len(raw) > MaxEmbedOrigins {
		p.Add("#/embedOrigins", "too_many", "problem.origin.too_many", "max", MaxEmbedOrigins, "sent", len(raw))
		return nil, p.Err(KindInvalid, "problem.summary.origins_invalid")
	}
	out := make([]string, 0, len(raw))
	for i, r := range raw {
		o, code, msg := NormalizeEmbedOrigin(r)
		if code != "" {
			p.Add(pointer("#/embedOrigins", i), code, "problem.origin.refused", "origin", Quoted(truncateForDetail(strings.TrimSpace(r))), "why", msg)
			continue
		}
		if !slices.Contains(out, o) {
			out = append(out, o)
		}
	}
	if err := p.Err(KindInvalid, "problem.summary.origins_invalid_each"); err != nil {
		return nil, err
	}
	return out, nil
}

// SplitEmbedOrigins splits a list written with commas, spaces or one per
// line (the console's text area, the operator command's flag).
func SplitEmbedOrigins(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\n' || r == '\r' || r == '\t' })
}

// AllowedEmbedOrigins is the organization's list of origins that may frame
// its rooms, normalised (empty: none).
func (o *Organization) AllowedEmbedOrigins() []string {
	if o.EmbedOrigins == "" {
		return nil
	}
	return strings.Split(o.EmbedOrigins, ",")
}

// SetOrganizationEmbedOrigins replaces the origins allowed to frame an
// organization's rooms, checked and normalised (ParseEmbedOrigins), with
// an audit event (organization.embed_origins_changed) naming the old and
// the new list in the same database transaction. It returns the list
// stored. Rooms made for an origin taken off the list may no longer be
// framed (unframeRooms).
func (s *Store) SetOrganizationEmbedOrigins(ctx context.Context, id int64, raw []string) ([]string, error) {
	origins, err := ParseEmbedOrigins(raw)
	if err != nil {
		return nil, err
	}
	joined := strings.Join(origins, ",")
	err = s.audited(ctx, ActivityEmbedOrigins, func(tx *Store) (string, error) {
		var org Organization
		if err := tx.db.WithContext(ctx).First(&org, "id = ?", id).Error; err != nil {
			return "", mapDBError(err)
		}
		if org.EmbedOrigins == joined {
			return "embed origins of organization " + strconv.FormatInt(id, 10) + " unchanged", nil
		}
		res := tx.db.WithContext(ctx).Model(&Organization{}).Where("id = ?", id).
			Updates(map[string]any{"embed_origins": joined, "updated_at": tx.Now()})
		if res.Error != nil {
			return "", mapDBError(res.Error)
		}
		summary := "Embedding origins " + originList(org.EmbedOrigins) + " → " + originList(joined)
		unframed, err := tx.unframeRooms(ctx, id, origins)
		if err != nil {
			return "", err
		}
		if unframed > 0 {
			summary += "; " + strconv.FormatInt(unframed, 10) + " room(s) made for a removed origin may no longer be framed"
		}
		if err := tx.audit(ctx, AuditEntry{OrganizationID: id, Action: "organization.embed_origins_changed",
			TargetType: "organization", TargetID: strconv.FormatInt(id, 10), Summary: summary}); err != nil {
			return "", err
		}
		return summary + " for organization " + strconv.FormatInt(id, 10), nil
	})
	if err != nil {
		return nil, err
	}
	return origins, nil
}

// unframeRooms takes the embed origin from the organization's rooms made
// for an origin no longer allowed: their pages go back to frame-ancestors
// 'none' (the link still opens them in a tab of their own).
func (s *Store) unframeRooms(ctx context.Context, orgID int64, allowed []string) (int64, error) {
	q := s.db.WithContext(ctx).Model(&Room{}).Where("organization_id = ? AND embed_origin <> ''", orgID)
	if len(allowed) > 0 {
		q = q.Where("embed_origin NOT IN ?", allowed)
	}
	res := q.Updates(map[string]any{"embed_origin": "", "updated_at": s.Now()})
	return res.RowsAffected, mapDBError(res.Error)
}

// originList is a stored list as a person reads it.
func originList(joined string) string {
	if joined == "" {
		return "(none)"
	}
	return strings.ReplaceAll(joined, ",", ", ")
}

// checkRoomEmbed refuses a room's embed origin the organization has not
// allowed (422 embed_origin_not_allowed at #/embed/origin).
func (s *Store) checkRoomEmbed(ctx context.Context, orgID int64, origin string) error {
	if origin == "" {
		return nil
	}
	org, err := s.GetOrganization(ctx, orgID)
	if err != nil {
		return err
	}
	if !slices.Contains(org.AllowedEmbedOrigins(), origin) {
		return Unprocessable("#/embed/origin", "embed_origin_not_allowed", "problem.origin.not_allowed", "origin", origin)
	}
	return nil
}
