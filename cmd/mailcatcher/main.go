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
	"syscall"

	"github.com/markuproom/markuproom/handlers/delivery/mailcatch"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:1025", "listen address")
	flag.Parse()
	n := 0
	srv := mailcatch.NewServer(&mailcatch.Catcher{OnMessage: func(m mailcatch.Message) {
		n++
		printMessage(os.Stdout, n, m)
	}})
	srv.Addr = *addr
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

// printMessage writes the n-th message's envelope, To, Subject and plain text.
func printMessage(w io.Writer, n int, m mailcatch.Message) {
	fmt.Fprintf(w, "\n── message %d ── from %s to %s\n", n, m.From, strings.Join(m.To, ", "))
	msg, err := mail.ReadMessage(bytes.NewReader(m.Data))
	if err != nil {
		fmt.Fprintf(w, "(unreadable: %v)\n", err)
		return
	}
	dec := new(mime.WordDecoder)
	subject, _ := dec.DecodeHeader(msg.Header.Get("Subject"))
	to, _ := dec.DecodeHeader(msg.Header.Get("To"))
	fmt.Fprintf(w, "To: %s\nSubject: %s\n\n%s\n", to, subject, plainText(msg))
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
