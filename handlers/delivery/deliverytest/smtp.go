// Package deliverytest runs a real SMTP server (emersion/go-smtp) on
// loopback for tests of outbound e-mail: it keeps what it receives and can
// refuse messages with a temporary error.
package deliverytest

import (
	"bytes"
	"io"
	"net"
	"net/mail"
	"sync"
	"testing"

	"github.com/emersion/go-smtp"
)

// Received is one message as the SMTP server got it.
type Received struct {
	From string
	To   []string
	Data []byte
}

// Header parses the message's header.
func (r Received) Header(t testing.TB) mail.Header {
	t.Helper()
	m, err := mail.ReadMessage(bytes.NewReader(r.Data))
	if err != nil {
		t.Fatalf("the received message does not parse: %v\n%s", err, r.Data)
	}
	return m.Header
}

// SMTPServer is a real SMTP server on loopback that keeps what it receives;
// Refuse(n) answers the next n DATA commands with a 451.
type SMTPServer struct {
	Addr string

	mu     sync.Mutex
	msgs   []Received
	refuse int
}

// StartSMTP starts a server that stops when the test ends.
func StartSMTP(t testing.TB) *SMTPServer {
	t.Helper()
	s := &SMTPServer{}
	srv := smtp.NewServer(s)
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	srv.MaxRecipients = 10
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.Addr = l.Addr().String()
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { _ = srv.Close() })
	return s
}

// URL is the server's smtp:// URL.
func (s *SMTPServer) URL() string { return "smtp://" + s.Addr }

// Refuse makes the next n messages fail with a temporary error.
func (s *SMTPServer) Refuse(n int) {
	s.mu.Lock()
	s.refuse = n
	s.mu.Unlock()
}

// Messages returns what has arrived so far.
func (s *SMTPServer) Messages() []Received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Received(nil), s.msgs...)
}

// NewSession implements smtp.Backend.
func (s *SMTPServer) NewSession(*smtp.Conn) (smtp.Session, error) { return &smtpSession{srv: s}, nil }

type smtpSession struct {
	srv  *SMTPServer
	from string
	to   []string
}

func (x *smtpSession) Reset()        { x.from, x.to = "", nil }
func (x *smtpSession) Logout() error { return nil }
func (x *smtpSession) Mail(from string, _ *smtp.MailOptions) error {
	x.from = from
	return nil
}

func (x *smtpSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	x.to = append(x.to, to)
	return nil
}

func (x *smtpSession) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	x.srv.mu.Lock()
	defer x.srv.mu.Unlock()
	if x.srv.refuse > 0 {
		x.srv.refuse--
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "try again later"}
	}
	x.srv.msgs = append(x.srv.msgs, Received{From: x.from, To: append([]string(nil), x.to...), Data: b})
	return nil
}
