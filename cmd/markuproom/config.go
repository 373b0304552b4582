package main

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/markuproom/markuproom/handlers"
	"github.com/markuproom/markuproom/handlers/delivery"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/blob"
	"github.com/markuproom/markuproom/models/keyring"
	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/pdfworker"
)

// config is the server configuration, read from the environment (the
// README's "Configuration" table lists every variable).
type config struct {
	Addr           string
	BaseURL        string
	DataDir        string
	DatabaseURL    string
	BlobURL        string
	SessionSecret  string
	Demo           bool
	EVault         string
	RoomTTL        time.Duration
	MaxUploadBytes int64
	AutoMigrate    bool
	LogLevel       string
	// AdminIdleTimeout and AdminMaxAge end an admin console session after
	// that long without a request, and that long after sign-in.
	AdminIdleTimeout time.Duration
	AdminMaxAge      time.Duration
	// MessageRetention is how long delivered and given-up outbox messages
	// are kept, IdempotencyRetention how long an Idempotency-Key is;
	// SweepInterval how often the retention sweep runs.
	MessageRetention     time.Duration
	IdempotencyRetention time.Duration
	SweepInterval        time.Duration
	// RollupInterval is how often each instance adds the API requests it
	// counted to the overview's rollups (MARKUPROOM_ROLLUP_INTERVAL).
	RollupInterval time.Duration
	// AuditRetention is how long audit events are kept (0, the default:
	// forever; MARKUPROOM_RETENTION_AUDIT).
	AuditRetention time.Duration
	// SMTPURL and SMTPFrom send invitation e-mails; with no URL they are held.
	SMTPURL  string
	SMTPFrom string
	// WebhookAllowPrivate lets webhook endpoints use http:// and reach
	// loopback and private addresses (development and tests only).
	WebhookAllowPrivate bool
	// OutboxMaxAttempts is how many times a message is tried before it is dead.
	OutboxMaxAttempts int
	// OutboxLease is how long a worker owns the messages it claimed: a
	// message whose worker died is sent again after it (at least 21 s,
	// more than twice the 10 s send timeout).
	OutboxLease time.Duration
	// RateLimits are the token buckets (MARKUPROOM_RATE_*).
	RateLimits handlers.RateLimits
	// PseudoLocale offers the test-only pseudo-language (?lang=en-XA).
	PseudoLocale bool
	// MetricsToken serves /metrics on the main listener to requests bearing
	// it; MetricsAddr serves it, without a token, on a separate listener.
	// With neither, /metrics is not served.
	MetricsToken string
	MetricsAddr  string
	// PDFMaxDecodedStreamBytes and PDFMaxDecodedFileBytes cap what one PDF
	// stream and all streams of one PDF may decode to; PDFConcurrency is how
	// many PDF operations run at once.
	PDFMaxDecodedStreamBytes int64
	PDFMaxDecodedFileBytes   int64
	PDFConcurrency           int
	// PDFWorkerMemory, PDFWorkerCPU and PDFWorkerTimeout are the hard
	// limits of one PDF job in its worker process (resident memory in
	// bytes, processor time, wall-clock time); PDFWorkerJobs is how many
	// jobs a worker does before it is replaced.
	PDFWorkerMemory  int64
	PDFWorkerCPU     time.Duration
	PDFWorkerTimeout time.Duration
	PDFWorkerJobs    int
	// MaxTemplates is how many templates (not archived) an organization may keep.
	MaxTemplates int
	// RoomStreamsPerRoom and StreamsPerInstance bound the room event
	// streams of one room and of this instance (429 past them).
	RoomStreamsPerRoom, StreamsPerInstance int
	// SecretKey seals stored secrets (MARKUPROOM_SECRET_KEY, 32 bytes); nil
	// means derived from the session secret. PreviousSecretKeys only open
	// (MARKUPROOM_SECRET_KEY_PREVIOUS, during a key rotation).
	SecretKey          []byte
	PreviousSecretKeys [][]byte
	// TrustedProxies lists the reverse proxies (IPs, CIDRs) whose
	// X-Forwarded-For is believed; empty trusts none.
	TrustedProxies []string
}

// loadConfig reads every variable, applies the defaults and reports every bad value at once.
func loadConfig(getenv func(string) string) (config, error) {
	var errs []error
	str := func(key, def string) string {
		if v := strings.TrimSpace(getenv(key)); v != "" {
			return v
		}
		return def
	}
	boolean := func(key string, def bool) bool {
		v := strings.TrimSpace(getenv(key))
		if v == "" {
			return def
		}
		b, err := strconv.ParseBool(v)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s=%q is not a boolean (use true or false)", key, v))
			return def
		}
		return b
	}
	c := config{
		Addr:          str("MARKUPROOM_ADDR", ":8080"),
		BaseURL:       strings.TrimRight(str("MARKUPROOM_BASE_URL", "http://localhost:8080"), "/"),
		DataDir:       str("MARKUPROOM_DATA_DIR", "./data"),
		DatabaseURL:   str("DATABASE_URL", ""),
		SessionSecret: str("MARKUPROOM_SESSION_SECRET", ""),
		Demo:          boolean("MARKUPROOM_DEMO", str("DATABASE_URL", "") == ""), // only the embedded default seeds by default
		EVault:        str("MARKUPROOM_EVAULT", "default"),
		AutoMigrate:   boolean("MARKUPROOM_AUTO_MIGRATE", true),
		LogLevel:      str("MARKUPROOM_LOG_LEVEL", "info"),
	}
	c.BlobURL = str("MARKUPROOM_BLOB_URL", blob.DefaultURL(c.DataDir))

	if u, err := url.Parse(c.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		errs = append(errs, fmt.Errorf("MARKUPROOM_BASE_URL=%q must be an absolute http:// or https:// URL", c.BaseURL))
	}
	ttl := str("MARKUPROOM_ROOM_TTL", "24h")
	d, err := time.ParseDuration(ttl)
	if err != nil || d <= 0 {
		errs = append(errs, fmt.Errorf("MARKUPROOM_ROOM_TTL=%q must be a positive duration such as 24h or 90m", ttl))
	}
	c.RoomTTL = d
	duration := func(key, def string) time.Duration {
		v := str(key, def)
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			errs = append(errs, fmt.Errorf("%s=%q must be a positive duration such as 30m or 12h", key, v))
		}
		return d
	}
	c.AdminIdleTimeout = duration("MARKUPROOM_ADMIN_IDLE_TIMEOUT", "30m")
	c.AdminMaxAge = duration("MARKUPROOM_ADMIN_MAX_AGE", "12h")
	c.MessageRetention = duration("MARKUPROOM_RETENTION_MESSAGES", "720h")
	c.IdempotencyRetention = duration("MARKUPROOM_RETENTION_IDEMPOTENCY", "24h")
	c.SweepInterval = duration("MARKUPROOM_SWEEP_INTERVAL", "1h")
	c.RollupInterval = duration("MARKUPROOM_ROLLUP_INTERVAL", "1m")
	if v := str("MARKUPROOM_RETENTION_AUDIT", "0"); v != "0" {
		c.AuditRetention = duration("MARKUPROOM_RETENTION_AUDIT", v)
	}
	maxUpload := str("MARKUPROOM_MAX_UPLOAD_BYTES", "52428800")
	n, err := strconv.ParseInt(maxUpload, 10, 64)
	if err != nil || n <= 0 {
		errs = append(errs, fmt.Errorf("MARKUPROOM_MAX_UPLOAD_BYTES=%q must be a positive number of bytes", maxUpload))
	}
	c.MaxUploadBytes = n
	c.SMTPURL = str("MARKUPROOM_SMTP_URL", "")
	c.SMTPFrom = str("MARKUPROOM_SMTP_FROM", "")
	if c.SMTPFrom == "" {
		host := "localhost"
		if u, err := url.Parse(c.BaseURL); err == nil && u.Hostname() != "" {
			host = u.Hostname()
		}
		c.SMTPFrom = "Markup Room <no-reply@" + host + ">"
	}
	if c.SMTPURL != "" {
		if _, err := delivery.NewMailer(c.SMTPURL, c.SMTPFrom, time.Minute); errors.Is(err, delivery.ErrSenderAddress) {
			errs = append(errs, fmt.Errorf("MARKUPROOM_SMTP_FROM: %w", err))
		} else if err != nil {
			errs = append(errs, fmt.Errorf("MARKUPROOM_SMTP_URL: %w", err))
		}
	}
	c.WebhookAllowPrivate = boolean("MARKUPROOM_WEBHOOK_ALLOW_PRIVATE", false)
	c.PseudoLocale = boolean("MARKUPROOM_PSEUDO_LOCALE", false)
	c.MetricsToken, c.MetricsAddr = str("MARKUPROOM_METRICS_TOKEN", ""), str("MARKUPROOM_METRICS_ADDR", "")
	if c.MetricsToken != "" && (len(c.MetricsToken) < 16 || strings.ContainsAny(c.MetricsToken, " \t")) {
		errs = append(errs, errors.New("MARKUPROOM_METRICS_TOKEN must have at least 16 characters and no spaces"))
	}
	if c.MetricsAddr != "" {
		if _, _, err := net.SplitHostPort(c.MetricsAddr); err != nil {
			errs = append(errs, fmt.Errorf("MARKUPROOM_METRICS_ADDR=%q must be host:port, such as 10.0.0.5:9090 or :9090", c.MetricsAddr))
		}
	}
	attempts := str("MARKUPROOM_OUTBOX_MAX_ATTEMPTS", "10")
	if c.OutboxMaxAttempts, err = strconv.Atoi(attempts); err != nil || c.OutboxMaxAttempts < 1 || c.OutboxMaxAttempts > 100 {
		errs = append(errs, fmt.Errorf("MARKUPROOM_OUTBOX_MAX_ATTEMPTS=%q must be a whole number from 1 to 100", attempts))
	}
	if c.OutboxLease = duration("MARKUPROOM_OUTBOX_LEASE", "2m"); c.OutboxLease > 0 && c.OutboxLease <= 20*time.Second {
		errs = append(errs, fmt.Errorf("MARKUPROOM_OUTBOX_LEASE=%s must be longer than 20s (twice the send timeout)", c.OutboxLease))
	}
	c.RateLimits = loadRateLimits(str, &errs)
	positive := func(key, def string) int64 {
		v := str(key, def)
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n <= 0 {
			errs = append(errs, fmt.Errorf("%s=%q must be a positive whole number", key, v))
		}
		return n
	}
	if n := positive("MARKUPROOM_PDF_CONCURRENCY", "2"); n > 1000 {
		errs = append(errs, fmt.Errorf("MARKUPROOM_PDF_CONCURRENCY=%d must be at most 1000", n))
	} else {
		c.PDFConcurrency = int(n)
	}
	if c.PDFWorkerMemory = positive("MARKUPROOM_PDF_WORKER_MEMORY", strconv.FormatInt(pdfworker.DefaultMemory, 10)); c.PDFWorkerMemory < 64<<20 {
		errs = append(errs, fmt.Errorf("MARKUPROOM_PDF_WORKER_MEMORY=%d must be at least 67108864 (64 MiB)", c.PDFWorkerMemory))
	}
	// The decode caps are sized from the workers' memory unless set.
	caps := pdf.LimitsForMemory(c.PDFWorkerMemory, c.MaxUploadBytes)
	c.PDFMaxDecodedStreamBytes = positive("MARKUPROOM_PDF_MAX_DECODED_STREAM_BYTES", strconv.FormatInt(caps.MaxStreamBytes, 10))
	c.PDFMaxDecodedFileBytes = positive("MARKUPROOM_PDF_MAX_DECODED_FILE_BYTES", strconv.FormatInt(caps.MaxFileBytes, 10))
	c.PDFWorkerTimeout = duration("MARKUPROOM_PDF_WORKER_TIMEOUT", pdfworker.DefaultTimeout.String())
	c.PDFWorkerCPU = duration("MARKUPROOM_PDF_WORKER_CPU", c.PDFWorkerTimeout.String())
	c.PDFWorkerJobs = int(min(positive("MARKUPROOM_PDF_WORKER_JOBS", strconv.Itoa(pdfworker.DefaultMaxJobs)), 1_000_000))
	if n := positive("MARKUPROOM_MAX_TEMPLATES", strconv.Itoa(models.DefaultMaxTemplates)); n > 1_000_000 {
		errs = append(errs, fmt.Errorf("MARKUPROOM_MAX_TEMPLATES=%d must be at most 1000000", n))
	} else {
		c.MaxTemplates = int(n)
	}
	c.RoomStreamsPerRoom = int(min(positive("MARKUPROOM_ROOM_STREAMS_PER_ROOM", strconv.Itoa(models.DefaultRoomStreamsPerRoom)), 1_000_000))
	c.StreamsPerInstance = int(min(positive("MARKUPROOM_STREAMS_PER_INSTANCE", strconv.Itoa(models.DefaultStreamsPerInstance)), 1_000_000))
	if v := str("MARKUPROOM_SECRET_KEY", ""); v != "" {
		if c.SecretKey, err = keyring.ParseSecretKey(v); err != nil {
			errs = append(errs, fmt.Errorf("MARKUPROOM_SECRET_KEY: %w", err))
		}
	}
	if v := str("MARKUPROOM_SECRET_KEY_PREVIOUS", ""); v != "" {
		for i, part := range strings.Split(v, ",") {
			k, err := keyring.ParseSecretKey(part)
			if err != nil {
				errs = append(errs, fmt.Errorf("MARKUPROOM_SECRET_KEY_PREVIOUS, key %d: %w", i+1, err))
				continue
			}
			c.PreviousSecretKeys = append(c.PreviousSecretKeys, k)
		}
	}
	c.TrustedProxies, err = trustedProxies(str("MARKUPROOM_TRUSTED_PROXIES", ""))
	if err != nil {
		errs = append(errs, err)
	}
	if c.EVault == "" || len(c.EVault) > 100 {
		errs = append(errs, errors.New("MARKUPROOM_EVAULT must be a name of at most 100 characters"))
	}
	return c, errors.Join(errs...)
}

// trustedProxies parses MARKUPROOM_TRUSTED_PROXIES: IP addresses and CIDR
// ranges separated by commas (empty: none).
func trustedProxies(v string) ([]string, error) {
	var out []string
	for _, p := range strings.Split(v, ",") {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		if _, err := netip.ParsePrefix(p); err != nil {
			if _, err := netip.ParseAddr(p); err != nil {
				return nil, fmt.Errorf("MARKUPROOM_TRUSTED_PROXIES: %q is neither an IP address nor a CIDR range (such as 10.0.0.0/8)", p)
			}
		}
		out = append(out, p)
	}
	return out, nil
}

// sessionKey returns MARKUPROOM_SESSION_SECRET, or a random key kept in the
// data dir so that sessions survive restarts.
func (c config) sessionKey() ([]byte, error) {
	if c.SessionSecret != "" {
		if len(c.SessionSecret) < 32 {
			return nil, errors.New("MARKUPROOM_SESSION_SECRET must have at least 32 characters")
		}
		return []byte(c.SessionSecret), nil
	}
	path := filepath.Join(c.DataDir, "session.key")
	if b, err := os.ReadFile(path); err == nil {
		key, err := hex.DecodeString(strings.TrimSpace(string(b)))
		if err != nil || len(key) < 32 {
			return nil, fmt.Errorf("%s is not a valid session key; delete it to generate a new one", path)
		}
		return key, nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(c.DataDir, 0o750); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) {
		return c.sessionKey() // another process wrote it first
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if _, err := f.WriteString(hex.EncodeToString(key) + "\n"); err != nil {
		return nil, err
	}
	return key, f.Sync()
}

// keyring is what seals stored secrets: MARKUPROOM_SECRET_KEY (or, unset, a
// key derived from the session secret with HKDF) seals; the previous keys
// open. With an explicit key, the key derived from the session secret opens
// too (when there is a session secret), so setting MARKUPROOM_SECRET_KEY on
// a running installation needs no other step: start-up seals everything
// again with it.
func (c config) keyring() (keyring.Keyring, error) {
	var derived []byte
	sessionKnown := c.SessionSecret != ""
	if !sessionKnown {
		_, err := os.Stat(filepath.Join(c.DataDir, "session.key"))
		sessionKnown = err == nil
	}
	if c.SecretKey == nil || sessionKnown {
		session, err := c.sessionKey()
		if err != nil {
			return keyring.Keyring{}, err
		}
		if derived, err = keyring.DeriveSecretKey(session); err != nil {
			return keyring.Keyring{}, err
		}
	}
	if c.SecretKey == nil {
		return keyring.New(derived, c.PreviousSecretKeys...)
	}
	previous := c.PreviousSecretKeys
	if derived != nil {
		previous = append(previous, derived)
	}
	return keyring.New(c.SecretKey, previous...)
}

// loadRateLimits reads MARKUPROOM_RATE_LIMITS (on/off) and the per-kind
// MARKUPROOM_RATE_{API,ROOM,ANON}_{RPS,BURST} and MARKUPROOM_RATE_UPLOADS_PER_MIN.
func loadRateLimits(str func(key, def string) string, errs *[]error) handlers.RateLimits {
	def := handlers.DefaultRateLimits()
	var l handlers.RateLimits
	switch v := str("MARKUPROOM_RATE_LIMITS", "on"); strings.ToLower(v) {
	case "on":
	case "off":
		l.Off = true
	default:
		*errs = append(*errs, fmt.Errorf("MARKUPROOM_RATE_LIMITS=%q must be on or off", v))
	}
	bucket := func(kind string, d models.RateLimit) models.RateLimit {
		rpsKey, burstKey := "MARKUPROOM_RATE_"+kind+"_RPS", "MARKUPROOM_RATE_"+kind+"_BURST"
		rps := str(rpsKey, strconv.FormatFloat(d.PerSecond, 'f', -1, 64))
		r, err := strconv.ParseFloat(rps, 64)
		if err != nil || !(r > 0 && r <= 1e6) {
			*errs = append(*errs, fmt.Errorf("%s=%q must be a number of requests a second above 0 (such as 50 or 0.5)", rpsKey, rps))
		}
		burst := str(burstKey, strconv.Itoa(d.Burst))
		b, err := strconv.Atoi(burst)
		if err != nil || b < 1 || b > 1e9 {
			*errs = append(*errs, fmt.Errorf("%s=%q must be a whole number of requests of at least 1", burstKey, burst))
		}
		return models.RateLimit{PerSecond: r, Burst: b}
	}
	l.API = bucket("API", def.API)
	l.Room = bucket("ROOM", def.Room)
	l.Anon = bucket("ANON", def.Anon)
	uploads := str("MARKUPROOM_RATE_UPLOADS_PER_MIN", strconv.Itoa(def.UploadsPerMinute))
	n, err := strconv.Atoi(uploads)
	if err != nil || n < 1 || n > 1e9 {
		*errs = append(*errs, fmt.Errorf("MARKUPROOM_RATE_UPLOADS_PER_MIN=%q must be a whole number of uploads of at least 1", uploads))
	}
	l.UploadsPerMinute = n
	return l
}
