package models

import (
	"strings"
	"testing"
)

func TestWebhookRegistrationNormalisesTheHost(t *testing.T) {
	t.Parallel()
	refused := []string{
		// loopback in every numeric form inet_aton reads
		"https://127.0.0.1/", "https://2130706433/", "https://0177.0.0.1/", "https://0x7f000001/",
		"https://0x7f.0.0.1/", "https://0x7F.1/", "https://127.1/", "https://127.0.1/", "https://017700000001/",
		"https://0/", "https://0x0/", "https://127.0.0.1./",
		// private and metadata addresses in other forms
		"https://10.1/", "https://0xa9fea9fe/", "https://169.254.43518/", "https://0300.0250.1.1/", "https://3232235777/",
		// IPv6: loopback, IPv4-mapped and IPv4-compatible forms
		"https://[::1]/", "https://[::127.0.0.1]/", "https://[::ffff:127.0.0.1]/", "https://[::ffff:7f00:1]/",
		"https://[::ffff:10.0.0.1]/", "https://[::ffff:0:127.0.0.1]/", "https://[::8.8.8.8]/", "https://[fe80::1%25eth0]/",
		// names of this machine
		"https://localhost/", "https://localhost./", "https://LOCALHOST/", "https://api.localhost/", "https://api.localhost./",
		"https://ｌｏｃａｌｈｏｓｔ/",
		// fullwidth, circled and other digits and dots that UTS #46 maps to ASCII
		"https://１２７.０.０.１/", "https://①②⑦.0.0.1/", "https://127。0。0。1/", "https://127．0．0．1/",
		"https://%EF%BC%91%EF%BC%92%EF%BC%97.0.0.1/", "https://⑩.0.0.1/", "https://１２７.１/",
		// hosts no resolver reads: numeric but not an address, empty labels
		"https://256.0.0.1/", "https://1.2.3.4.5/", "https://08.0.0.1/", "https://4294967296/", "https://example.99999999999/",
		"https://a..b/", "https://./", "https://xn--/",
	}
	allowed := []string{
		"https://hooks.acme.example/markuproom", "https://8.8.8.8/", "https://134744072/" /* 8.8.8.8 */, "https://0x08080808/",
		"https://[2606:4700:4700::1111]/", "https://bücher.example/hook", "https://xn--bcher-kva.example/hook",
		"https://hooks.example.com./x", "https://_acme.hooks.example.com/x", "https://1.example.com/", "https://127.example.com/",
		"https://localhost.example.com/", "https://mylocalhost/", "https://ｈｏｏｋｓ.ｅｘａｍｐｌｅ/", "https://api.example:8443/x",
		"https://0x7f000001.example.com/",
	}
	p := WebhookPolicy{}
	for _, u := range refused {
		if detail := p.urlProblem(u); detail.IsZero() {
			t.Errorf("%s: accepted, want refused", u)
		}
		err := p.CheckWebhook(NewWebhook{URL: u, Events: []string{WebhookTransactionUpdated}})
		if err == nil || !strings.Contains(err.Error(), "problem.summary.webhook_invalid") {
			t.Errorf("%s: CheckWebhook = %v", u, err)
		}
	}
	for _, u := range allowed {
		if detail := p.urlProblem(u); !detail.IsZero() {
			t.Errorf("%s: refused (%s), want accepted", u, detail)
		}
	}
	// The operator's development setting still allows loopback, in any form.
	for _, u := range []string{"http://127.0.0.1:8080/x", "http://localhost:9000/", "http://0x7f.1/", "https://①②⑦.0.0.1/"} {
		if detail := (WebhookPolicy{AllowPrivate: true}).urlProblem(u); !detail.IsZero() {
			t.Errorf("AllowPrivate: %s refused: %s", u, detail)
		}
	}
}

func TestParseInetAton(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"127.0.0.1": "127.0.0.1", "2130706433": "127.0.0.1", "0177.0.0.1": "127.0.0.1", "0x7f000001": "127.0.0.1",
		"127.1": "127.0.0.1", "127.0.1": "127.0.0.1", "0x7f.0x0.0.01": "127.0.0.1", "1.2.772": "1.2.3.4",
		"1.0x10203": "1.1.2.3", "0": "0.0.0.0", "0x": "0.0.0.0", "4294967295": "255.255.255.255",
		"1.2.3.256": "", "256.1": "", "1.16777216": "", "1.2.65536": "", "4294967296": "", "09": "", "0xg": "",
		"1.2.3.4.5": "", "1..2": "", "": "", "-1": "", "+1": "", "1_0": "",
	} {
		addr, ok := parseInetAton(in)
		if got := addr.String(); (ok && got != want) || (!ok && want != "") {
			t.Errorf("parseInetAton(%q) = %v, %v; want %q", in, addr, ok, want)
		}
	}
}
