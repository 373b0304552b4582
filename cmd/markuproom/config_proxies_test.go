package main

import (
	"slices"
	"strings"
	"testing"
)

func TestTrustedProxiesConfig(t *testing.T) {
	for _, c := range []struct {
		value   string
		want    []string
		wantErr string
	}{
		{"", nil, ""},
		{"10.0.0.1", []string{"10.0.0.1"}, ""},
		{" 10.0.0.0/8, 192.168.1.7 ,2001:db8::/32,", []string{"10.0.0.0/8", "192.168.1.7", "2001:db8::/32"}, ""},
		{"10.0.0.0/8,proxy.internal", nil, `"proxy.internal"`},
		{"10.0.0.0/33", nil, `"10.0.0.0/33"`},
	} {
		cfg, err := loadConfig(func(k string) string {
			if k == "MARKUPROOM_TRUSTED_PROXIES" {
				return c.value
			}
			return ""
		})
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), "MARKUPROOM_TRUSTED_PROXIES") || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("%q: error %v, want one naming the variable and %s", c.value, err, c.wantErr)
			}
			continue
		}
		if err != nil || !slices.Equal(cfg.TrustedProxies, c.want) {
			t.Errorf("%q: %q, %v; want %q", c.value, cfg.TrustedProxies, err, c.want)
		}
	}
}
