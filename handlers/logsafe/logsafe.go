// Package logsafe makes URLs fit for log lines and problem bodies: the
// capabilities and credentials they may carry become "[redacted]".
package logsafe

import (
	"net/url"
	"strings"
)

// redacted replaces a secret in what the server writes about a request.
const redacted = "[redacted]"

// capabilityPrefixes start the path segments that grant access by
// themselves: a Markup Room link ("/markup-room/<token>").
func capabilityPrefixes() []string { return []string{"markup-room"} }

// secretMarkers are substrings of values that are credentials whatever
// their place: room tokens, API tokens, webhook secrets.
func secretMarkers() []string { return []string{"mrr_", "mrt_", "whsec_"} }

// secretQueryKeys name query parameters whose values are credentials.
func secretQueryKeys() []string {
	return []string{"token", "access_token", "key", "secret", "password", "passwd", "code", "csrf", "signature", "sig", "auth", "session", "apikey", "api_key"}
}

// URL is the one place that makes a request URL fit for a log line or a
// problem's instance: a capability segment after "/markup-room/" and any
// segment carrying a token becomes "[redacted]", and so does every query
// value whose key looks like a credential (token=, secret=, csrf=, …) or
// whose value carries a token. rawQuery may be empty; the query is kept in
// its order, re-encoded.
func URL(path, rawQuery string) string {
	out := redactPath(path)
	if rawQuery == "" {
		return out
	}
	return out + "?" + redactQuery(rawQuery)
}

func redactPath(path string) string {
	segs := strings.Split(path, "/")
	changed := false
	for i, s := range segs {
		if s == "" {
			continue
		}
		if (i > 0 && isCapabilityPrefix(segs[i-1])) || carriesSecret(s) {
			segs[i] = redacted
			changed = true
		}
	}
	if !changed {
		return path
	}
	return strings.Join(segs, "/")
}

func isCapabilityPrefix(seg string) bool {
	for _, p := range capabilityPrefixes() {
		if seg == p {
			return true
		}
	}
	return false
}

func carriesSecret(s string) bool {
	lower := strings.ToLower(s)
	for _, m := range secretMarkers() {
		if strings.Contains(lower, m) {
			return true
		}
	}
	return false
}

func secretKey(key string) bool {
	k := strings.ToLower(key)
	for _, s := range secretQueryKeys() {
		if k == s {
			return true
		}
	}
	// accessToken, x-csrf-token, client_secret, new_password, room_session, …
	// room_session: an embedded room's session in its address (docs/decisions.md, "Embedded rooms").
	for _, suffix := range []string{"token", "secret", "password", "signature", "_session"} {
		if strings.HasSuffix(k, suffix) {
			return true
		}
	}
	return false
}

// redactQuery keeps the query's parameters in order, replacing secret values.
// A part that does not parse is kept only when it carries nothing secret.
func redactQuery(rawQuery string) string {
	parts := strings.Split(rawQuery, "&")
	for i, part := range parts {
		if part == "" {
			continue
		}
		rawKey, rawValue, hasValue := strings.Cut(part, "=")
		key, err := url.QueryUnescape(rawKey)
		if err != nil {
			key = rawKey
		}
		value, err := url.QueryUnescape(rawValue)
		if err != nil {
			value = rawValue
		}
		switch {
		case carriesSecret(key):
			parts[i] = redacted
		case hasValue && (secretKey(key) || carriesSecret(value)):
			parts[i] = rawKey + "=" + redacted
		}
	}
	return strings.Join(parts, "&")
}

// RawURL is URL for a whole URL (an outgoing call's target, for example);
// user information is dropped. A value that does not parse is not shown.
func RawURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return redacted
	}
	out := ""
	if u.Scheme != "" {
		out = u.Scheme + "://"
	}
	out += u.Host
	return out + URL(u.EscapedPath(), u.RawQuery)
}
