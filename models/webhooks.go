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
	// StoredSecret is the signing secret as the table keeps it: sealed with
	// the server's key (or, in a row older than sealing, plaintext until the
	// start-up sealing reaches it). Never shown.
	StoredSecret string `gorm:"column:secret"`
	// StoredPreviousSecret is the secret a rotation replaced, sealed; it
	// signs beside the new one until PreviousSecretExpiresAt.
	StoredPreviousSecret    string     `gorm:"column:previous_secret"`
	PreviousSecretExpiresAt *time.Time `gorm:"column:previous_secret_expires_at"`
	Description             string     `gorm:"column:description"`
	CreatedAt               time.Time  `gorm:"column:created_at;autoCreateTime:false"`

	// Secret signs every call ("whsec_" + base64 of 32 random bytes): shown
	// to the caller once, at creation or rotation; filled in only where a
	// caller needs it (the delivery worker, the answer to a creation).
	Secret string `gorm:"-"`
	// PreviousSecret is the opened StoredPreviousSecret while it still signs.
	PreviousSecret string `gorm:"-"`
}

// WebhookRotationOverlap is how long a replaced secret keeps signing calls
// beside the new one, so receivers can switch without missing one.
const WebhookRotationOverlap = 24 * time.Hour

// SigningSecrets are the secrets that sign a call: the current one, and the
// previous one during the overlap after a rotation (the store fills
// PreviousSecret only while the overlap lasts).
func (w *WebhookEndpoint) SigningSecrets() []string {
	out := []string{w.Secret}
	if w.PreviousSecret != "" {
		out = append(out, w.PreviousSecret)
	}
	return out
}

func webhookSecretAAD(id string) string         { return "webhook_endpoints.secret:" + id }
func webhookPreviousSecretAAD(id string) string { return "webhook_endpoints.previous_secret:" + id }

func newWebhookSecret() (string, error) {
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return "", err
	}
	return WebhookSecretPrefix + base64.StdEncoding.EncodeToString(key), nil
}

// openSecrets fills w.Secret and w.PreviousSecret from what the table keeps.
func (s *Store) openSecrets(w *WebhookEndpoint) error {
	var err error
	if w.Secret, _, err = s.keys.OpenStored(w.StoredSecret, webhookSecretAAD(w.ID)); err != nil {
		return fmt.Errorf("webhook endpoint %s: %w", w.ID, err)
	}
	if w.PreviousSecretExpiresAt != nil && s.Now().Before(*w.PreviousSecretExpiresAt) {
		if w.PreviousSecret, _, err = s.keys.OpenStored(w.StoredPreviousSecret, webhookPreviousSecretAAD(w.ID)); err != nil {
			return fmt.Errorf("webhook endpoint %s, previous secret: %w", w.ID, err)
		}
	}
	return nil
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
	return probs.Err(KindInvalid, "problem.summary.webhook_invalid")
}

func (p WebhookPolicy) checkWebhook(probs *Problems, in NewWebhook) {
	if code, msg := textProblem(in.URL, MaxWebhookURLLength); code != "" {
		probs.AddMessage("#/url", code, msg)
	} else if msg := p.urlProblem(in.URL); !msg.IsZero() {
		probs.AddMessage("#/url", "invalid_url", msg)
	}
	if len(in.Events) == 0 {
		probs.Add("#/events", "required", "problem.webhook.events_required", "allowed", strings.Join(WebhookEvents(), ", "))
	}
	for i, e := range in.Events {
		switch {
		case !slices.Contains(WebhookEvents(), e):
			probs.Add("#/events/"+strconv.Itoa(i), "invalid_enum", "problem.webhook.unknown_event", "value", Quoted(truncateForDetail(e)), "allowed", strings.Join(WebhookEvents(), ", "))
		case slices.Index(in.Events, e) != i:
			probs.Add("#/events/"+strconv.Itoa(i), "duplicate", "problem.value.listed_twice", "value", Quoted(e))
		}
	}
	if code, msg := textProblem(in.Description, MaxWebhookDescriptionLen); code != "" {
		probs.AddMessage("#/description", code, msg)
	}
}

func (p WebhookPolicy) urlProblem(raw string) Message {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.Opaque != "" {
		return Msg("problem.webhook.url_absolute")
	}
	switch {
	case u.Scheme == "https":
	case u.Scheme == "http" && p.AllowPrivate:
	case u.Scheme == "http":
		return Msg("problem.webhook.url_no_http")
	default:
		return Msg("problem.webhook.url_https")
	}
	if u.User != nil {
		return Msg("problem.webhook.url_credentials")
	}
	if u.Fragment != "" {
		return Msg("problem.webhook.url_fragment")
	}
	host, ok := normalizeWebhookHost(u.Hostname())
	if !ok {
		return Msg("problem.webhook.url_host")
	}
	if host.Addr.IsValid() && !p.AllowPrivate && !PublicAddr(host.Addr) {
		return Msg("problem.webhook.url_private")
	}
	if !p.AllowPrivate && (host.Name == "localhost" || strings.HasSuffix(host.Name, ".localhost")) {
		return Msg("problem.webhook.url_local")
	}
	return Message{}
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
	netip.MustParsePrefix("::/96"),           // IPv4-compatible IPv6 (deprecated, never routed): ::127.0.0.1
	netip.MustParsePrefix("::ffff:0:0:0/96"), // IPv4-translated (SIIT)
	netip.MustParsePrefix("64:ff9b::/96"),
	netip.MustParsePrefix("64:ff9b:1::/48"), // local-use NAT64 (RFC 8215)
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
	secret, err := newWebhookSecret()
	if err != nil {
		return nil, err
	}
	sealed, err := s.keys.Seal([]byte(secret), webhookSecretAAD(uid.String()))
	if err != nil {
		return nil, err
	}
	w := &WebhookEndpoint{
		ID: uid.String(), OrganizationID: orgID, URL: in.URL, Events: StringList(in.Events),
		StoredSecret: sealed, Secret: secret, Description: in.Description, CreatedAt: s.Now(),
	}
	err = s.audited(ctx, ActivityCreate, func(tx *Store) (string, error) {
		// Registrations of one organization take turns, so two at once cannot
		// both pass the count (SQLite's IMMEDIATE transactions already do).
		if tx.dialect == DialectPostgres {
			var org Organization
			if err := tx.db.WithContext(ctx).Clauses(clause.Locking{Strength: "UPDATE"}).Select("id").Take(&org, orgID).Error; err != nil {
				return "", mapDBError(err)
			}
		}
		var n int64
		if err := tx.db.WithContext(ctx).Model(&WebhookEndpoint{}).Where("organization_id = ?", orgID).Count(&n).Error; err != nil {
			return "", mapDBError(err)
		}
		if n >= MaxWebhooksPerOrg {
			return "", Unprocessable("#/url", "limit_reached", "problem.webhook.limit", "max", MaxWebhooksPerOrg)
		}
		if err := tx.db.WithContext(ctx).Create(w).Error; err != nil {
			return "", mapDBError(err)
		}
		return "webhook " + w.ID + " (" + w.URL + ")", tx.audit(ctx, AuditEntry{OrganizationID: orgID, Action: "webhook.created",
			TargetType: "webhook", TargetID: w.ID, Summary: "Registered webhook " + w.URL + " for " + strings.Join(in.Events, ", ")})
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
	return out, mapDBError(err)
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
		return nil, mapDBError(err)
	}
	for i := range rows {
		// An endpoint whose secret does not open keeps an empty one: the
		// sender refuses to call it unsigned, the rest of the batch goes on.
		if err := s.openSecrets(&rows[i]); err != nil {
			s.log.WarnContext(ctx, "webhook secret unreadable", "endpoint", rows[i].ID, "error", err)
			rows[i].Secret, rows[i].PreviousSecret = "", ""
		}
		out[rows[i].ID] = &rows[i]
	}
	return out, nil
}

// GetWebhook reads one of an organization's endpoints with its secrets
// opened; another organization's id is ErrNotFound.
func (s *Store) GetWebhook(ctx context.Context, orgID int64, id string) (*WebhookEndpoint, error) {
	var w WebhookEndpoint
	if err := s.db.WithContext(ctx).Where("organization_id = ? AND id = ?", orgID, id).Take(&w).Error; err != nil {
		return nil, mapDBError(err)
	}
	if err := s.openSecrets(&w); err != nil {
		return nil, err
	}
	return &w, nil
}

// RotateWebhookSecret gives an organization's endpoint a new secret and
// returns the endpoint carrying it (the only time it is shown). The secret
// it replaces keeps signing beside the new one for WebhookRotationOverlap;
// a rotation within the overlap of the last one drops the older secret
// (two sign at most). Another organization's id is ErrNotFound.
func (s *Store) RotateWebhookSecret(ctx context.Context, orgID int64, id string) (*WebhookEndpoint, error) {
	var out *WebhookEndpoint
	err := s.audited(ctx, ActivityCreate, func(tx *Store) (string, error) {
		var w WebhookEndpoint
		q := tx.db.WithContext(ctx)
		if tx.dialect == DialectPostgres {
			q = q.Clauses(clause.Locking{Strength: "UPDATE"})
		}
		if err := q.Where("organization_id = ? AND id = ?", orgID, id).Take(&w).Error; err != nil {
			return "", mapDBError(err)
		}
		old, _, err := tx.keys.OpenStored(w.StoredSecret, webhookSecretAAD(w.ID))
		if err != nil {
			return "", err
		}
		secret, err := newWebhookSecret()
		if err != nil {
			return "", err
		}
		sealed, err := tx.keys.Seal([]byte(secret), webhookSecretAAD(w.ID))
		if err != nil {
			return "", err
		}
		sealedOld, err := tx.keys.Seal([]byte(old), webhookPreviousSecretAAD(w.ID))
		if err != nil {
			return "", err
		}
		until := tx.Now().Add(WebhookRotationOverlap)
		if err := tx.db.WithContext(ctx).Model(&WebhookEndpoint{}).Where("id = ?", w.ID).
			Updates(map[string]any{"secret": sealed, "previous_secret": sealedOld, "previous_secret_expires_at": until}).Error; err != nil {
			return "", mapDBError(err)
		}
		w.StoredSecret, w.StoredPreviousSecret, w.PreviousSecretExpiresAt = sealed, sealedOld, &until
		w.Secret, w.PreviousSecret = secret, old
		out = &w
		return "signing secret of webhook " + w.ID + " (" + w.URL + ")", tx.audit(ctx, AuditEntry{OrganizationID: orgID,
			Action: "webhook.secret_rotated", TargetType: "webhook", TargetID: w.ID, Summary: "Rotated the signing secret of webhook " + w.URL})
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// SealStoredSecrets seals, with the current key, every stored secret that
// is still plaintext (rows written before secrets were sealed) or sealed
// with a previous key (after a key rotation): webhook secrets and stored
// Idempotency-Key replays. The server runs it at start-up; it is safe to
// run on several instances at once. It reports how many values it sealed.
func (s *Store) SealStoredSecrets(ctx context.Context) (int, error) {
	n := 0
	var hooks []WebhookEndpoint
	if err := s.db.WithContext(ctx).Find(&hooks).Error; err != nil {
		return 0, mapDBError(err)
	}
	for i := range hooks {
		w := &hooks[i]
		updates := map[string]any{}
		secret, reseal, err := s.keys.OpenStored(w.StoredSecret, webhookSecretAAD(w.ID))
		if err != nil {
			return n, fmt.Errorf("webhook endpoint %s: %w", w.ID, err)
		}
		if reseal {
			if updates["secret"], err = s.keys.Seal([]byte(secret), webhookSecretAAD(w.ID)); err != nil {
				return n, err
			}
		}
		prev, reseal, err := s.keys.OpenStored(w.StoredPreviousSecret, webhookPreviousSecretAAD(w.ID))
		switch {
		case err != nil && (w.PreviousSecretExpiresAt == nil || !s.Now().Before(*w.PreviousSecretExpiresAt)):
			updates["previous_secret"], updates["previous_secret_expires_at"] = "", nil // expired anyway
		case err != nil:
			return n, fmt.Errorf("webhook endpoint %s, previous secret: %w", w.ID, err)
		case reseal:
			if updates["previous_secret"], err = s.keys.Seal([]byte(prev), webhookPreviousSecretAAD(w.ID)); err != nil {
				return n, err
			}
		}
		if len(updates) == 0 {
			continue
		}
		// Only if the row is unchanged since it was read (a rotation may have run).
		res := s.db.WithContext(ctx).Model(&WebhookEndpoint{}).
			Where("id = ? AND secret = ? AND previous_secret = ?", w.ID, w.StoredSecret, w.StoredPreviousSecret).Updates(updates)
		if res.Error != nil {
			return n, mapDBError(res.Error)
		}
		n += int(res.RowsAffected)
	}
	m, err := s.sealIdempotencyBodies(ctx)
	return n + m, err
}

// DeleteWebhook removes an organization's endpoint; calls still queued for it
// go dead when their turn comes. Another organization's id is ErrNotFound.
func (s *Store) DeleteWebhook(ctx context.Context, orgID int64, id string) error {
	return s.audited(ctx, ActivityDelete, func(tx *Store) (string, error) {
		var w WebhookEndpoint
		if err := tx.db.WithContext(ctx).Select("id", "url").Where("organization_id = ? AND id = ?", orgID, id).Take(&w).Error; err != nil {
			return "", mapDBError(err)
		}
		res := tx.db.WithContext(ctx).Where("organization_id = ? AND id = ?", orgID, id).Delete(&WebhookEndpoint{})
		if res.Error != nil {
			return "", mapDBError(res.Error)
		}
		if res.RowsAffected == 0 {
			return "", ErrNotFound
		}
		return "webhook " + id, tx.audit(ctx, AuditEntry{OrganizationID: orgID, Action: "webhook.deleted",
			TargetType: "webhook", TargetID: id, Summary: "Deleted webhook " + w.URL})
	})
}

// WebhookEvent is the JSON body of a webhook call. Type is Data's event type.
type WebhookEvent struct {
	ID   string      `json:"id"`
	Type string      `json:"type"`
	Time time.Time   `json:"time"`
	Data WebhookData `json:"data"`
}

// UnmarshalJSON reads a webhook body, its data into the struct of its type
// (a value, such as RoomCompletedData). An unknown type is an error.
func (e *WebhookEvent) UnmarshalJSON(b []byte) error {
	var raw struct {
		ID   string          `json:"id"`
		Type string          `json:"type"`
		Time time.Time       `json:"time"`
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	var (
		data WebhookData
		err  error
	)
	switch raw.Type {
	case WebhookTransactionUpdated:
		data, err = decodeWebhookData[TransactionUpdatedData](raw.Data)
	case WebhookTransactionESignPending:
		data, err = decodeWebhookData[TransactionESignPendingData](raw.Data)
	case WebhookRoomCompleted:
		data, err = decodeWebhookData[RoomCompletedData](raw.Data)
	default:
		return fmt.Errorf("webhook event %s: unknown type %q", raw.ID, raw.Type)
	}
	if err != nil {
		return fmt.Errorf("webhook event %s (%s): %w", raw.ID, raw.Type, err)
	}
	*e = WebhookEvent{ID: raw.ID, Type: raw.Type, Time: raw.Time, Data: data}
	return nil
}

func decodeWebhookData[T WebhookData](raw []byte) (WebhookData, error) {
	var d T
	if err := json.Unmarshal(raw, &d); err != nil {
		return nil, err
	}
	return d, nil
}

// queueEvent writes one call per endpoint of hooks subscribed to the event,
// inside the caller's database transaction. Every call of one event carries
// the same event id (the webhook-id header), so receivers can drop repeats.
func (s *Store) queueEvent(ctx context.Context, hooks []WebhookEndpoint, txID *string, data WebhookData) error {
	kind := data.EventType()
	var rows []*OutboxMessage
	var body []byte
	for i := range hooks {
		if !hooks[i].Subscribes(kind) {
			continue
		}
		if body == nil {
			uid, err := uuid.NewV7()
			if err != nil {
				return err
			}
			if body, err = json.Marshal(WebhookEvent{ID: "evt_" + uid.String(), Type: kind, Time: s.Now(), Data: data}); err != nil {
				return err
			}
		}
		m, err := s.newMessage(hooks[i].OrganizationID, txID, MessageWebhook, kind, hooks[i].URL, body)
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
					p.Add(pointer(o.at("events"), i), "invalid_type", "problem.webhook.event_not_string", "kind", item.kind)
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
	return in, p.Err(KindInvalid, "problem.summary.webhook_invalid")
}
