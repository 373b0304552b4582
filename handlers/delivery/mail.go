package delivery

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/mail"
	"net/url"
	"strconv"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/templates"
	"github.com/markuproom/markuproom/web/i18n"
)

// Mailer sends invitation e-mails over SMTP.
type Mailer struct {
	host string
	opts []gomail.Option
	from *mail.Address
}

// Errors of NewMailer, telling which of its inputs is wrong.
var (
	ErrSMTPURL       = errors.New("bad SMTP server URL")
	ErrSenderAddress = errors.New("bad sender address")
)

// NewMailer reads an SMTP URL: smtp://[user:pass@]host[:port] speaks
// STARTTLS (required when credentials are given, so a password never
// crosses the network in clear; used when offered otherwise, as by a local
// mail catcher), smtps://… uses implicit TLS (port 465 by default). from is
// the From address ("Name <addr>" or a bare address).
func NewMailer(rawURL, from string, timeout time.Duration) (*Mailer, error) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Hostname() == "" {
		return nil, fmt.Errorf("%w: %q is not an smtp:// or smtps:// URL with a host", ErrSMTPURL, redact(rawURL))
	}
	sender, err := mail.ParseAddress(from)
	if err != nil {
		return nil, fmt.Errorf("%w: %q is not an e-mail address: %w", ErrSenderAddress, from, err)
	}
	opts := []gomail.Option{gomail.WithTimeout(timeout)}
	port := 0
	if p := u.Port(); p != "" {
		if port, err = strconv.Atoi(p); err != nil || port <= 0 || port > 65535 {
			return nil, fmt.Errorf("%w: %q has a bad port", ErrSMTPURL, redact(rawURL))
		}
	}
	switch u.Scheme {
	case "smtp":
		if port == 0 {
			port = 587
		}
		policy := gomail.TLSOpportunistic
		if u.User != nil {
			policy = gomail.TLSMandatory
		}
		opts = append(opts, gomail.WithPort(port), gomail.WithTLSPolicy(policy))
	case "smtps":
		if port == 0 {
			port = 465
		}
		opts = append(opts, gomail.WithSSL(), gomail.WithPort(port))
	default:
		return nil, fmt.Errorf("%w: %q must start with smtp:// or smtps://", ErrSMTPURL, redact(rawURL))
	}
	if u.User != nil {
		pass, _ := u.User.Password()
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthAutoDiscover), gomail.WithUsername(u.User.Username()), gomail.WithPassword(pass))
	}
	return &Mailer{host: u.Hostname(), opts: opts, from: sender}, nil
}

// Letter is one invitation to send; ID becomes its Message-ID, so a
// receiver can tell a repeat from a new message.
type Letter struct {
	ID         string
	Invitation *models.Invitation
}

// Send delivers one invitation.
func (m *Mailer) Send(ctx context.Context, id string, inv *models.Invitation) error {
	return m.SendBatch(ctx, []Letter{{ID: id, Invitation: inv}})[0]
}

// SendBatch delivers invitations over one SMTP connection and returns each
// one's error (nil: delivered), in order. A letter that cannot be composed,
// or that the server refuses for good (5xx), has a permanent error; a
// failure to connect is every letter's (temporary) error.
func (m *Mailer) SendBatch(ctx context.Context, letters []Letter) []error {
	errs := make([]error, len(letters))
	var msgs []*gomail.Msg
	var at []int // msgs[i] is letters[at[i]]
	for i, l := range letters {
		msg, err := m.compose(ctx, l.ID, l.Invitation)
		if err != nil {
			errs[i] = err
			continue
		}
		msgs = append(msgs, msg)
		at = append(at, i)
	}
	if len(msgs) == 0 {
		return errs
	}
	// One client per batch: go-mail's Client holds one connection at a time.
	c, err := gomail.NewClient(m.host, m.opts...)
	if err != nil {
		for _, i := range at {
			errs[i] = permanent(err)
		}
		return errs
	}
	err = c.DialAndSendWithContext(ctx, msgs...)
	for k, msg := range msgs {
		i := at[k]
		switch {
		case msg.HasSendError():
			errs[i] = smtpError(msg.SendError())
		case err != nil && !msg.IsDelivered():
			errs[i] = err // the connection failed before this message went out
		}
	}
	return errs
}

// smtpError marks a refusal for good (5xx) as permanent.
func smtpError(err error) error {
	var se *gomail.SendError
	if errors.As(err, &se) && se.ErrorCode() >= 500 && se.ErrorCode() < 600 {
		return permanent(fmt.Errorf("the SMTP server refused the message for good: %w", err))
	}
	return err
}

// mailSubject is the subject an e-mail goes out with: its caller's, else
// the default in its invitation's language.
func mailSubject(m *models.OutboxMessage) string {
	ctx := i18n.With(context.Background(), i18n.For(m.Language))
	return templates.InvitationSubject(ctx, templates.InvitationView{Subject: m.Subject})
}

// compose builds the message: the recipient checked with net/mail, every
// header value free of control characters, a plain-text and an HTML body.
func (m *Mailer) compose(ctx context.Context, id string, inv *models.Invitation) (*gomail.Msg, error) {
	to, err := mail.ParseAddress(inv.To)
	if err != nil || to.Name != "" {
		return nil, permanent(fmt.Errorf("%q is not an e-mail address", inv.To))
	}
	// The language was fixed when the message was queued (models,
	// Invitation.Language): a later change of locale leaves it as it was.
	ctx = i18n.With(ctx, i18n.For(inv.Language))
	view := templates.InvitationView{
		Name: models.HeaderText(inv.Name), Subject: models.HeaderText(inv.Subject), Organization: models.HeaderText(inv.Organization),
		Documents: inv.Documents, Message: inv.Message, ReferenceID: inv.ReferenceID,
	}
	var html bytes.Buffer
	if err := templates.InvitationEmail(view).Render(ctx, &html); err != nil {
		return nil, err
	}
	msg := gomail.NewMsg()
	msg.FromMailAddress(m.from)
	if err := msg.AddToFormat(view.Name, to.Address); err != nil {
		return nil, permanent(err)
	}
	msg.Subject(models.HeaderText(templates.InvitationSubject(ctx, view)))
	domain := m.from.Address[strings.LastIndexByte(m.from.Address, '@')+1:]
	msg.SetMessageIDWithValue(id + "@" + domain)
	msg.SetDate()
	msg.SetBodyString(gomail.TypeTextPlain, templates.InvitationText(ctx, view))
	msg.AddAlternativeString(gomail.TypeTextHTML, html.String())
	return msg, nil
}

// redact hides a password in a URL for messages.
func redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(not a URL)" // it may still hold a password
	}
	if u.User == nil {
		return raw
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	return u.String()
}
