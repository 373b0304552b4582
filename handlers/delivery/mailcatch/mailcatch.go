// Package mailcatch is an SMTP server (emersion/go-smtp) that accepts every
// message and keeps it: the development mail catcher (cmd/mailcatcher) and
// the SMTP server of the delivery tests. It can refuse messages with a
// temporary error. Never expose it: it takes mail from anyone.
package mailcatch

import (
	"io"
	"sync"

	"github.com/emersion/go-smtp"
)

// Message is one message as the server got it.
type Message struct {
	From string
	To   []string
	Data []byte
}

// Catcher is the server's backend: it keeps every message it accepts.
type Catcher struct {
	// OnMessage, when set, sees each accepted message, one at a time, in
	// the order they arrive.
	OnMessage func(Message)

	mu       sync.Mutex
	msgs     []Message
	refuse   int
	sessions int
}

// Sessions is how many SMTP connections have been opened so far.
func (c *Catcher) Sessions() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sessions
}

// NewServer is an SMTP server on c (set its Addr, or Serve a listener).
func NewServer(c *Catcher) *smtp.Server {
	srv := smtp.NewServer(c)
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	srv.MaxMessageBytes = 10 << 20
	srv.MaxRecipients = 100
	return srv
}

// Refuse makes the next n messages fail with a 451 (try again later).
func (c *Catcher) Refuse(n int) {
	c.mu.Lock()
	c.refuse = n
	c.mu.Unlock()
}

// Messages returns what has arrived so far.
func (c *Catcher) Messages() []Message {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Message(nil), c.msgs...)
}

// NewSession implements smtp.Backend.
func (c *Catcher) NewSession(*smtp.Conn) (smtp.Session, error) {
	c.mu.Lock()
	c.sessions++
	c.mu.Unlock()
	return &session{c: c}, nil
}

type session struct {
	c    *Catcher
	from string
	to   []string
}

func (s *session) Reset()        { s.from, s.to = "", nil }
func (s *session) Logout() error { return nil }

func (s *session) Mail(from string, _ *smtp.MailOptions) error {
	s.from = from
	return nil
}

func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.to = append(s.to, to)
	return nil
}

func (s *session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	c := s.c
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.refuse > 0 {
		c.refuse--
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "try again later"}
	}
	m := Message{From: s.from, To: append([]string(nil), s.to...), Data: b}
	c.msgs = append(c.msgs, m)
	if c.OnMessage != nil {
		c.OnMessage(m)
	}
	return nil
}
