package models

import (
	"net/netip"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/net/idna"
)

// webhookHost is a URL host normalised the way a resolver would read it:
// UTS #46 mapped and IDNA-encoded (fullwidth and circled digits become ASCII
// digits, ideographic full stops become dots), lower case, without the
// trailing dot of a fully qualified name, and, when it is an address in any
// form (inet_aton's decimal, octal and hexadecimal numbers of 1 to 4 parts,
// bracketed IPv6), that address.
type webhookHost struct {
	Name string     // the normalised name ("127.0.0.1" for "0x7f.1")
	Addr netip.Addr // valid when the host is an address
}

// normalizeWebhookHost reads host (as url.URL.Hostname returns it); ok is
// false for a host no resolver would accept: not IDNA-valid, empty, or a
// name ending in a numeric label that is not a valid IPv4 address.
func normalizeWebhookHost(host string) (webhookHost, bool) {
	if host == "" {
		return webhookHost{}, false
	}
	if strings.Contains(host, ":") { // only a bracketed IPv6 literal has one
		addr, err := netip.ParseAddr(host)
		if err != nil {
			return webhookHost{}, false
		}
		return webhookHost{Name: addr.String(), Addr: addr}, true
	}
	name, err := idna.Lookup.ToASCII(host)
	if err != nil {
		// Lookup applies STD3 rules; hosts such as "_acme.example.com" are
		// still resolvable names, so retry with the mapping alone.
		mapOnly := idna.New(idna.MapForLookup(), idna.Transitional(false), idna.StrictDomainName(false))
		if name, err = mapOnly.ToASCII(host); err != nil {
			return webhookHost{}, false
		}
	}
	name = strings.TrimSuffix(strings.ToLower(name), ".")
	labels := strings.Split(name, ".")
	if slices.Contains(labels, "") || len(name) > 253 {
		return webhookHost{}, false
	}
	if last := labels[len(labels)-1]; numericLabel(last) {
		addr, ok := parseInetAton(name)
		if !ok {
			return webhookHost{}, false
		}
		return webhookHost{Name: addr.String(), Addr: addr}, true
	}
	return webhookHost{Name: name}, true
}

// numericLabel reports whether label reads as a number to inet_aton: decimal
// digits, or 0x followed by hexadecimal digits (WHATWG URL's "ends in a number").
func numericLabel(label string) bool {
	if label == "" {
		return false
	}
	if rest, ok := strings.CutPrefix(label, "0x"); ok {
		return strings.Trim(rest, "0123456789abcdef") == ""
	}
	return strings.Trim(label, "0123456789") == ""
}

// parseInetAton parses every IPv4 form inet_aton(3) accepts: one to four
// dot-separated numbers, each decimal, octal (leading 0) or hexadecimal
// (0x); the last number fills the bytes the earlier ones leave.
// s must be lower case.
func parseInetAton(s string) (netip.Addr, bool) {
	parts := strings.Split(s, ".")
	if len(parts) > 4 {
		return netip.Addr{}, false
	}
	nums := make([]uint64, len(parts))
	for i, p := range parts {
		base, digits := 10, p
		switch {
		case strings.HasPrefix(p, "0x"):
			base, digits = 16, p[2:]
			if digits == "" { // inet_aton reads a bare "0x" as 0
				digits = "0"
			}
		case len(p) > 1 && p[0] == '0':
			base, digits = 8, p[1:]
		}
		if digits == "" || strings.ContainsAny(digits, "+-_") {
			return netip.Addr{}, false
		}
		n, err := strconv.ParseUint(digits, base, 32)
		if err != nil {
			return netip.Addr{}, false
		}
		nums[i] = n
	}
	var v uint64
	for i, n := range nums[:len(nums)-1] {
		if n > 0xff {
			return netip.Addr{}, false
		}
		v |= n << (8 * (3 - i))
	}
	last := nums[len(nums)-1]
	if last >= 1<<(8*(5-len(nums))) {
		return netip.Addr{}, false
	}
	v |= last
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
}
