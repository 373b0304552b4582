// Package deliverytest starts the mail catcher (mailcatch) on loopback for
// tests of outbound e-mail.
package deliverytest

import (
	"bytes"
	"net"
	"net/mail"
	"testing"
	"time"

	"github.com/markuproom/markuproom/handlers/delivery/mailcatch"
)

// Received is one message as the SMTP server got it.
type Received mailcatch.Message

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
// Refuse(n) answers the next n messages with a 451.
type SMTPServer struct {
	Addr    string
	catcher *mailcatch.Catcher
	arrived chan struct{} // a message arrived since the last look (WaitMessages)
}

// StartSMTP starts a server that stops when the test ends.
func StartSMTP(t testing.TB) *SMTPServer {
	t.Helper()
	arrived := make(chan struct{}, 1)
	c := &mailcatch.Catcher{OnMessage: func(mailcatch.Message) {
		select {
		case arrived <- struct{}{}:
		default: // a signal is already waiting
		}
	}}
	srv := mailcatch.NewServer(c)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { _ = srv.Close() })
	return &SMTPServer{Addr: l.Addr().String(), catcher: c, arrived: arrived}
}

// URL is the server's smtp:// URL.
func (s *SMTPServer) URL() string { return "smtp://" + s.Addr }

// Refuse makes the next n messages fail with a temporary error.
func (s *SMTPServer) Refuse(n int) { s.catcher.Refuse(n) }

// Sessions is how many connections the server has accepted.
func (s *SMTPServer) Sessions() int { return s.catcher.Sessions() }

// Messages returns what has arrived so far.
func (s *SMTPServer) Messages() []Received {
	msgs := s.catcher.Messages()
	out := make([]Received, len(msgs))
	for i, m := range msgs {
		out[i] = Received(m)
	}
	return out
}

// WaitMessages waits until at least n messages have arrived, woken by each
// arrival (the catcher's OnMessage), and returns them; it fails the test when
// fewer than n arrive within the given time.
func (s *SMTPServer) WaitMessages(t testing.TB, n int, within time.Duration) []Received {
	t.Helper()
	deadline := time.NewTimer(within)
	defer deadline.Stop()
	for {
		if got := s.Messages(); len(got) >= n {
			return got
		}
		select {
		case <-s.arrived:
		case <-deadline.C:
			t.Fatalf("%d of %d messages arrived within %s", len(s.Messages()), n, within)
		}
	}
}
