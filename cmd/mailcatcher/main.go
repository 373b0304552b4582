// Command mailcatcher is a local SMTP server for development: it accepts
// every message and prints its envelope, subject and plain-text body, so a
// newcomer can see Markup Room's invitation e-mails without installing
// anything. Never expose it: it accepts mail from anyone.
//
//	go run ./cmd/mailcatcher                       # listens on 127.0.0.1:1025
//	MARKUPROOM_SMTP_URL=smtp://localhost:1025 go run ./cmd/markuproom
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"mime"
	"mime/multipart"
	"net/mail"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"

	"github.com/emersion/go-smtp"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:1025", "listen address")
	flag.Parse()
	srv := smtp.NewServer(&backend{out: os.Stdout})
	srv.Addr = *addr
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	srv.MaxMessageBytes = 10 << 20
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	fmt.Printf("mailcatcher: listening on %s; point MARKUPROOM_SMTP_URL at smtp://%s\n", *addr, *addr)
	if err := srv.ListenAndServe(); err != nil && ctx.Err() == nil {
		log.Fatal(err)
	}
}

type backend struct {
	mu  sync.Mutex
	out io.Writer
	n   int
}

func (b *backend) NewSession(*smtp.Conn) (smtp.Session, error) { return &session{b: b}, nil }

type session struct {
	b    *backend
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
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.b.mu.Lock()
	defer s.b.mu.Unlock()
	s.b.n++
	fmt.Fprintf(s.b.out, "\n── message %d ── from %s to %s\n", s.b.n, s.from, strings.Join(s.to, ", "))
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		fmt.Fprintf(s.b.out, "(unreadable: %v)\n", err)
		return nil
	}
	dec := new(mime.WordDecoder)
	subject, _ := dec.DecodeHeader(msg.Header.Get("Subject"))
	to, _ := dec.DecodeHeader(msg.Header.Get("To"))
	fmt.Fprintf(s.b.out, "To: %s\nSubject: %s\n\n%s\n", to, subject, plainText(msg))
	return nil
}

// plainText returns the message's text/plain part (or says what it holds).
func plainText(msg *mail.Message) string {
	mt, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil || !strings.HasPrefix(mt, "multipart/") {
		b, _ := io.ReadAll(msg.Body)
		return string(b)
	}
	mr := multipart.NewReader(msg.Body, params["boundary"])
	var kinds []string
	for {
		p, err := mr.NextPart()
		if err != nil {
			return "(no text/plain part; parts: " + strings.Join(kinds, ", ") + ")"
		}
		ct, _, _ := mime.ParseMediaType(p.Header.Get("Content-Type"))
		if ct == "text/plain" {
			b, _ := io.ReadAll(p)
			return strings.TrimRight(string(b), "\n")
		}
		kinds = append(kinds, ct)
	}
}
