package main

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/markuproom/markuproom/handlers/delivery"
	"github.com/markuproom/markuproom/models/blob"
)

// config is the server configuration, read from the environment (DESIGN §2).
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
	// SMTPURL and SMTPFrom send invitation e-mails; with no URL they are held.
	SMTPURL  string
	SMTPFrom string
	// WebhookAllowPrivate lets webhook endpoints use http:// and reach
	// loopback and private addresses (development and tests only).
	WebhookAllowPrivate bool
	// OutboxMaxAttempts is how many times a message is tried before it is dead.
	OutboxMaxAttempts int
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
		Demo:          boolean("MARKUPROOM_DEMO", true),
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
		if _, err := delivery.NewMailer(c.SMTPURL, c.SMTPFrom, time.Minute); err != nil {
			errs = append(errs, err)
		}
	}
	c.WebhookAllowPrivate = boolean("MARKUPROOM_WEBHOOK_ALLOW_PRIVATE", false)
	attempts := str("MARKUPROOM_OUTBOX_MAX_ATTEMPTS", "10")
	if c.OutboxMaxAttempts, err = strconv.Atoi(attempts); err != nil || c.OutboxMaxAttempts < 1 || c.OutboxMaxAttempts > 100 {
		errs = append(errs, fmt.Errorf("MARKUPROOM_OUTBOX_MAX_ATTEMPTS=%q must be a whole number from 1 to 100", attempts))
	}
	if c.EVault == "" || len(c.EVault) > 100 {
		errs = append(errs, errors.New("MARKUPROOM_EVAULT must be a name of at most 100 characters"))
	}
	return c, errors.Join(errs...)
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
