package main

import (
	"net"
	"net/smtp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/markuproom/markuproom/handlers/delivery/mailcatch"
)

func TestCatcherPrintsEnvelopeSubjectAndPlainText(t *testing.T) {
	var mu sync.Mutex
	var out strings.Builder
	printedOne := make(chan struct{}, 1)
	srv := mailcatch.NewServer(&mailcatch.Catcher{OnMessage: func(m mailcatch.Message) {
		mu.Lock()
		defer mu.Unlock()
		printMessage(&out, 1, m)
		select {
		case printedOne <- struct{}{}:
		default:
		}
	}})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()

	msg := "To: =?utf-8?q?Jos=C3=A9?= <jose@example.com>\r\nSubject: Please sign\r\nMIME-Version: 1.0\r\n" +
		"Content-Type: multipart/alternative; boundary=b1\r\n\r\n" +
		"--b1\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nHello José\r\n" +
		"--b1\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<p>Hello</p>\r\n--b1--\r\n"
	if err := smtp.SendMail(ln.Addr().String(), nil, "from@example.com", []string{"jose@example.com"}, []byte(msg)); err != nil {
		t.Fatal(err)
	}
	printed := func() string {
		mu.Lock()
		defer mu.Unlock()
		return out.String()
	}
	select {
	case <-printedOne:
	case <-time.After(5 * time.Second):
		t.Fatal("the catcher printed nothing within 5 s")
	}
	got := printed()
	for _, want := range []string{"from from@example.com to jose@example.com", "To: José <jose@example.com>", "Subject: Please sign", "Hello José"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "<p>Hello</p>") {
		t.Errorf("the HTML part was printed:\n%s", got)
	}
}
