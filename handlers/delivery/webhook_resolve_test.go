package delivery

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"testing"
	"time"
)

// Names under .invalid (RFC 6761) are "no such host" without a DNS query;
// every other name goes to the resolver.
func TestInvalidNamesNeverReachTheResolver(t *testing.T) {
	w := NewWebhookSender(false, time.Second)
	var asked []string
	errFake := errors.New("resolver asked")
	w.lookup = func(_ context.Context, _, host string) ([]netip.Addr, error) {
		asked = append(asked, host)
		return nil, errFake
	}
	for _, addr := range []string{"hooks.invalid:443", "HOOKS.Invalid.:443", "invalid:443"} {
		_, err := w.dial(t.Context(), "tcp", addr)
		var dnsErr *net.DNSError
		if !errors.As(err, &dnsErr) || !dnsErr.IsNotFound {
			t.Errorf("%s: %v, want a not-found DNS error", addr, err)
		}
	}
	if len(asked) != 0 {
		t.Fatalf("the resolver was asked for %v", asked)
	}
	if _, err := w.dial(t.Context(), "tcp", "hooks.invalid.example.com:443"); !errors.Is(err, errFake) {
		t.Fatalf("a name that only contains invalid: %v", err)
	}
	if len(asked) != 1 || asked[0] != "hooks.invalid.example.com" {
		t.Fatalf("asked %v", asked)
	}
}
