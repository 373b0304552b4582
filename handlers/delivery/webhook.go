package delivery

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/markuproom/markuproom/handlers/logsafe"
	"github.com/markuproom/markuproom/models"
)

// WebhookSender calls webhook endpoints: one signed POST per message, under
// a time limit, to public addresses only (unless the operator allows
// private ones), never following redirects and never through a proxy.
type WebhookSender struct {
	client       *http.Client
	allowPrivate bool
	now          func() time.Time
	// lookup resolves a host name (net.DefaultResolver's; tests replace it).
	lookup func(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// NewWebhookSender builds a sender; timeout bounds each call (connect,
// TLS, request and response together).
func NewWebhookSender(allowPrivate bool, timeout time.Duration) *WebhookSender {
	w := &WebhookSender{allowPrivate: allowPrivate, now: time.Now, lookup: net.DefaultResolver.LookupNetIP}
	transport := &http.Transport{
		Proxy:                 nil, // a proxy would make the address check meaningless
		DialContext:           w.dial,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          100,
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   timeout,
		ResponseHeaderTimeout: timeout,
	}
	w.client = &http.Client{
		Transport: transport,
		Timeout:   timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse // a 3xx is an answer, not a place to go
		},
	}
	return w
}

// Close drops idle connections.
func (w *WebhookSender) Close() { w.client.CloseIdleConnections() }

// refusedError is a target the sender will not connect to.
type refusedError struct{ host, addr string }

func (e *refusedError) Error() string {
	if e.host == e.addr {
		return fmt.Sprintf("refused: %s is a loopback, private or link-local address", e.addr)
	}
	return fmt.Sprintf("refused: %s resolves to %s, a loopback, private or link-local address", e.host, e.addr)
}

// dial resolves the host, checks every address it has, then connects to a
// checked address (never resolving again, so a DNS answer cannot change
// between the check and the connection).
func (w *WebhookSender) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	host, portText, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	port, err := strconv.ParseUint(portText, 10, 16)
	if err != nil {
		return nil, err
	}
	var ips []netip.Addr
	if ip, err := netip.ParseAddr(host); err == nil {
		ips = []netip.Addr{ip}
	} else if ips, err = w.resolve(ctx, host); err != nil {
		return nil, err
	}
	for _, ip := range ips {
		if !w.allowPrivate && !models.PublicAddr(ip) {
			return nil, &refusedError{host: host, addr: ip.Unmap().String()}
		}
	}
	var d net.Dialer
	var last error
	for _, ip := range ips {
		conn, err := d.DialContext(ctx, network, netip.AddrPortFrom(ip.Unmap(), uint16(port)).String())
		if err == nil {
			return conn, nil
		}
		last = err
	}
	if last == nil {
		last = fmt.Errorf("%s has no address", host)
	}
	return nil, last
}

// resolve looks a host name up. Names under the special-use domain "invalid"
// (RFC 6761 §6.4) never resolve: they get the resolver's "no such host"
// answer at once, without a DNS query leaving the machine.
func (w *WebhookSender) resolve(ctx context.Context, host string) ([]netip.Addr, error) {
	name := strings.ToLower(strings.TrimSuffix(host, "."))
	if name == "invalid" || strings.HasSuffix(name, ".invalid") {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	return w.lookup(ctx, "ip", host)
}

// Sign is the Standard Webhooks signature of one call: "v1," and the base64
// HMAC-SHA256, keyed with the secret's bytes (the base64 after "whsec_"), of
// "<webhook-id>.<webhook-timestamp>.<body>".
func Sign(secret, id string, timestamp int64, body []byte) (string, error) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, models.WebhookSecretPrefix))
	if err != nil {
		return "", fmt.Errorf("the endpoint's secret is not valid base64: %w", err)
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id + "." + strconv.FormatInt(timestamp, 10) + "."))
	mac.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil)), nil
}

// Send makes one call of a queued webhook message to its endpoint. A 2xx
// answer is success; anything else, or no answer, is an error to retry.
func (w *WebhookSender) Send(ctx context.Context, ep *models.WebhookEndpoint, m *models.OutboxMessage) error {
	u, err := url.Parse(ep.URL)
	if err != nil || (u.Scheme != "https" && !(u.Scheme == "http" && w.allowPrivate)) {
		return permanent(fmt.Errorf("refused: %s is not an https:// URL", logsafe.RawURL(ep.URL)))
	}
	var event struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(m.Payload, &event); err != nil || event.ID == "" {
		return permanent(fmt.Errorf("the queued event has no id: %v", err))
	}
	if ep.Secret == "" {
		return permanent(errors.New("the endpoint's secret cannot be read with this server's keys (MARKUPROOM_SECRET_KEY, MARKUPROOM_SECRET_KEY_PREVIOUS)"))
	}
	ts := w.now().Unix()
	// After a rotation, the old and the new secret both sign (Standard
	// Webhooks: signatures separated by a space; a receiver accepts the
	// call when any one of them verifies).
	var sigs []string
	for _, secret := range ep.SigningSecrets() {
		sig, err := Sign(secret, event.ID, ts, m.Payload)
		if err != nil {
			return permanent(err)
		}
		sigs = append(sigs, sig)
	}
	sig := strings.Join(sigs, " ")
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, ep.URL, bytes.NewReader(m.Payload))
	if err != nil {
		return permanent(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "MarkupRoom-Webhooks/1")
	req.Header.Set("webhook-id", event.ID)
	req.Header.Set("webhook-timestamp", strconv.FormatInt(ts, 10))
	req.Header.Set("webhook-signature", sig)
	res, err := w.client.Do(req)
	if err != nil {
		var refused *refusedError
		if errors.As(err, &refused) {
			return permanent(refused)
		}
		// Not `Post "https://…": …`: the console shows the URL beside it.
		var ue *url.Error
		if errors.As(err, &ue) {
			return ue.Err
		}
		return err
	}
	defer res.Body.Close()
	snippet, _ := io.ReadAll(io.LimitReader(res.Body, 512))
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10)) // let the connection be reused
	if res.StatusCode >= 200 && res.StatusCode < 300 {
		return nil
	}
	text := strings.TrimSpace(string(snippet))
	if text != "" {
		text = ": " + models.HeaderText(text)
	}
	return fmt.Errorf("the endpoint answered %s%s", res.Status, text)
}
