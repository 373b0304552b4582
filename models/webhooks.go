package models

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm/clause"
)

// Webhook event types an endpoint can subscribe to.
const (
	WebhookTransactionUpdated      = "transaction.updated"
	WebhookTransactionESignPending = "transaction.esign_pending"
	WebhookRoomCompleted           = "markup_room.completed"
)

// WebhookEvents lists every event type, in the order the API documents them.
func WebhookEvents() []string {
	return []string{WebhookTransactionUpdated, WebhookTransactionESignPending, WebhookRoomCompleted}
}

// Webhook limits.
const (
	MaxWebhookURLLength      = 2048
	MaxWebhooksPerOrg        = 20
	MaxWebhookDescriptionLen = 255
	// WebhookSecretPrefix starts every signing secret (the Standard Webhooks form).
	WebhookSecretPrefix = "whsec_"
)

// WebhookEndpoint is a URL an organization has registered for events.
type WebhookEndpoint struct {
	ID             string     `gorm:"column:id;primaryKey"`
	OrganizationID int64      `gorm:"column:organization_id"`
	URL            string     `gorm:"column:url"`
	Events         StringList `gorm:"column:events"`
	// Secret signs every call ("whsec_" + base64 of 32 random bytes); shown
	// to the caller once, at creation.
	Secret      string    `gorm:"column:secret"`
	Description string    `gorm:"column:description"`
	CreatedAt   time.Time `gorm:"column:created_at;autoCreateTime:false"`
}

// TableName implements gorm's tabler.
func (WebhookEndpoint) TableName() string { return "webhook_endpoints" }

// Subscribes reports whether the endpoint wants events of type event.
func (w *WebhookEndpoint) Subscribes(event string) bool { return slices.Contains(w.Events, event) }

// NewWebhook is a request to register an endpoint.
type NewWebhook struct {
	URL         string
	Events      []string
	Description string
}

// WebhookPolicy says which endpoint URLs are allowed.
type WebhookPolicy struct {
	// AllowPrivate lets endpoints use http:// and reach loopback, private and
	// link-local addresses (an operator setting, for development and tests).
	AllowPrivate bool
}

// CheckWebhook validates a registration: an absolute https:// URL (http://
// too when the policy allows private targets) without credentials, whose
// host, when it is an address, is a public one; known events, no repeats.
func (p WebhookPolicy) CheckWebhook(in NewWebhook) error {
	var probs Problems
	p.checkWebhook(&probs, in)
	return probs.Err(KindInvalid, "The webhook endpoint is not valid; see errors for each problem.")
}

func (p WebhookPolicy) checkWebhook(probs *Problems, in NewWebhook) {
	if code, detail := textProblem(in.URL, MaxWebhookURLLength); code != "" {
		probs.Add("#/url", code, "%s", detail)
	} else if detail := p.urlProblem(in.URL); detail != "" {
		probs.Add("#/url", "invalid_url", "%s", detail)
	}
	if len(in.Events) == 0 {
		probs.Add("#/events", "required", "Name at least one event: %s.", strings.Join(WebhookEvents(), ", "))
	}
	for i, e := range in.Events {
		switch {
		case !slices.Contains(WebhookEvents(), e):
			probs.Add("#/events/"+strconv.Itoa(i), "invalid_enum", "%q is not an event; use one of: %s.", truncateForDetail(e), strings.Join(WebhookEvents(), ", "))
		case slices.Index(in.Events, e) != i:
			probs.Add("#/events/"+strconv.Itoa(i), "duplicate", "%q is listed twice.", e)
		}
	}
	if code, detail := textProblem(in.Description, MaxWebhookDescriptionLen); code != "" {
		probs.Add("#/description", code, "%s", detail)
	}
}

func (p WebhookPolicy) urlProblem(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.Opaque != "" {
		return "The URL must be absolute, like https://example.com/hooks."
	}
	switch {
	case u.Scheme == "https":
	case u.Scheme == "http" && p.AllowPrivate:
	case u.Scheme == "http":
		return "The URL must start with https:// (this server does not call http:// endpoints)."
	default:
		return "The URL must start with https://."
	}
	if u.User != nil {
		return "The URL must not carry a user name or password."
	}
	if u.Fragment != "" {
		return "The URL must not have a #fragment."
	}
	host := u.Hostname()
	if addr, err := netip.ParseAddr(host); err == nil && !p.AllowPrivate && !PublicAddr(addr) {
		return "The URL names a loopback, private or link-local address; webhooks go to public hosts only."
	}
	if !p.AllowPrivate && (strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost")) {
		return "The URL names this machine; webhooks go to public hosts only."
	}
	return ""
}

// nonPublic lists the ranges a webhook may not reach beyond what netip's
// predicates cover: shared address space (RFC 6598), "this network", IETF
// protocol assignments, benchmarking, and NAT64 / 6to4 forms of private IPv4.
var nonPublic = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("100.64.0.0/10"),
	netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("198.18.0.0/15"),
	netip.MustParsePrefix("240.0.0.0/4"),
	netip.MustParsePrefix("64:ff9b::/96"),
	netip.MustParsePrefix("2002::/16"),
}

// PublicAddr reports whether a webhook may connect to addr: not loopback,
// private, link-local (cloud metadata lives at 169.254.169.254 and
// fd00:ec2::254), multicast, unspecified or otherwise reserved.
func PublicAddr(addr netip.Addr) bool {
	addr = addr.Unmap()
	if !addr.IsValid() || addr.IsLoopback() || addr.IsPrivate() || addr.IsLinkLocalUnicast() ||
		addr.IsLinkLocalMulticast() || addr.IsInterfaceLocalMulticast() || addr.IsMulticast() || addr.IsUnspecified() {
		return false
	}
	for _, p := range nonPublic {
		if p.Contains(addr) {
			return false
		}
	}
	return true
}

// CreateWebhook registers an endpoint for the organization; the returned
// endpoint carries its secret (the only time it is shown).
func (s *Store) CreateWebhook(ctx context.Context, orgID int64, policy WebhookPolicy, in NewWebhook) (*WebhookEndpoint, error) {
	if err := policy.CheckWebhook(in); err != nil {
		return nil, err
	}
	uid, err := uuid.NewV7()
	if err != nil {
		return nil, err
	}
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	w := &WebhookEndpoint{
		ID: uid.String(), OrganizationID: orgID, URL: in.URL, Events: StringList(in.Events),
		Secret: WebhookSecretPrefix + base64.StdEncoding.EncodeToString(key), Description: in.Description, CreatedAt: s.Now(),
	}
	err = s.inTx(ctx, func(tx *Store) error {
		// Registrations of one organization take turns, so two at once cannot
		// both pass the count (SQLite's IMMEDIATE transactions already do).
		if tx.dialect == DialectPostgres {
			var org Organization
			if err := tx.db.WithContext(ctx).Clauses(clause.Locking{Strength: "UPDATE"}).Select("id").Take(&org, orgID).Error; err != nil {
				return mapDBError(err)
			}
		}
		var n int64
		if err := tx.db.WithContext(ctx).Model(&WebhookEndpoint{}).Where("organization_id = ?", orgID).Count(&n).Error; err != nil {
			return err
		}
		if n >= MaxWebhooksPerOrg {
			return Unprocessable("#/url", "limit_reached", fmt.Sprintf("An organization can register at most %d webhook endpoints; delete one first.", MaxWebhooksPerOrg))
		}
		return mapDBError(tx.db.WithContext(ctx).Create(w).Error)
	})
	if err != nil {
		return nil, err
	}
	return w, nil
}

// ListWebhooks lists an organization's endpoints, oldest first.
func (s *Store) ListWebhooks(ctx context.Context, orgID int64) ([]WebhookEndpoint, error) {
	var out []WebhookEndpoint
	err := s.db.WithContext(ctx).Where("organization_id = ?", orgID).Order("created_at, id").Find(&out).Error
	return out, err
}

// WebhooksByID reads the endpoints with these ids (any organization's: the
// delivery worker's view of one batch), keyed by id; deleted ones are absent.
func (s *Store) WebhooksByID(ctx context.Context, ids []string) (map[string]*WebhookEndpoint, error) {
	out := map[string]*WebhookEndpoint{}
	if len(ids) == 0 {
		return out, nil
	}
	var rows []WebhookEndpoint
	if err := s.db.WithContext(ctx).Where("id IN ?", ids).Find(&rows).Error; err != nil {
		return nil, err
	}
	for i := range rows {
		out[rows[i].ID] = &rows[i]
	}
	return out, nil
}

// DeleteWebhook removes an organization's endpoint; calls still queued for it
// go dead when their turn comes. Another organization's id is ErrNotFound.
func (s *Store) DeleteWebhook(ctx context.Context, orgID int64, id string) error {
	res := s.db.WithContext(ctx).Where("organization_id = ? AND id = ?", orgID, id).Delete(&WebhookEndpoint{})
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected == 0 {
		return ErrNotFound
	}
	return nil
}

// WebhookEvent is the JSON body of a webhook call.
type WebhookEvent struct {
	ID   string         `json:"id"`
	Type string         `json:"type"`
	Time time.Time      `json:"time"`
	Data map[string]any `json:"data"`
}

// queueEvent writes one call per endpoint of hooks subscribed to the event,
// inside the caller's database transaction. Every call of one event carries
// the same event id (the webhook-id header), so receivers can drop repeats.
func (s *Store) queueEvent(ctx context.Context, hooks []WebhookEndpoint, txID *string, e webhookEvent) error {
	var rows []*OutboxMessage
	var body []byte
	for i := range hooks {
		if !hooks[i].Subscribes(e.kind) {
			continue
		}
		if body == nil {
			uid, err := uuid.NewV7()
			if err != nil {
				return err
			}
			if body, err = json.Marshal(WebhookEvent{ID: "evt_" + uid.String(), Type: e.kind, Time: s.Now(), Data: e.data}); err != nil {
				return err
			}
		}
		m, err := s.newMessage(hooks[i].OrganizationID, txID, MessageWebhook, e.kind, hooks[i].URL, body)
		if err != nil {
			return err
		}
		m.EndpointID = &hooks[i].ID
		rows = append(rows, m)
	}
	if len(rows) == 0 {
		return nil
	}
	return mapDBError(s.db.WithContext(ctx).Create(rows).Error)
}

// ParseNewWebhook decodes a registration request: {"url", "events", "description"}.
// Syntax, types, unknown fields and then CheckWebhook's rules are reported
// together as one 400 *ValidationError.
func ParseNewWebhook(body []byte, policy WebhookPolicy) (NewWebhook, error) {
	var p Problems
	var in NewWebhook
	if o, ok := parseBody(&p, body); ok {
		var okURL bool
		in.URL, okURL = o.str("url", true, MaxWebhookURLLength)
		items, okEvents := o.array("events", true, len(WebhookEvents()))
		if okEvents {
			for i, item := range items {
				if item.kind != "string" {
					p.Add(pointer(o.at("events"), i), "invalid_type", "Each event must be a string, got %s.", item.kind)
					continue
				}
				in.Events = append(in.Events, decodeJSONString(item.raw))
			}
		}
		if v := o.optStr("description", MaxWebhookDescriptionLen); v != nil {
			in.Description = *v
		}
		o.finish()
		if okURL && okEvents {
			policy.checkWebhook(&p, in)
		}
	}
	return in, p.Err(KindInvalid, "The webhook endpoint is not valid; see errors for each problem.")
}
