package logsafe

import "testing"

func TestURL(t *testing.T) {
	room := "mrr_0123456789abcdef01234567_" + "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	for _, tc := range []struct {
		name, path, query, want string
	}{
		{"plain API path", "/api/v1/transactions/abc", "", "/api/v1/transactions/abc"},
		{"room link", "/markup-room/" + room, "", "/markup-room/[redacted]"},
		{"room link, anything as token", "/markup-room/guessed-value", "", "/markup-room/[redacted]"},
		{"room link with a trailing part", "/markup-room/" + room + "/x", "", "/markup-room/[redacted]/x"},
		{"the room list of the API is no capability", "/api/v1/markup-rooms/0193", "", "/api/v1/markup-rooms/0193"},
		{"token anywhere in the path", "/static/" + room, "", "/static/[redacted]"},
		{"API token in the path", "/x/mrt_abc_def", "", "/x/[redacted]"},
		{"webhook secret in the path", "/x/whsec_QUJD", "", "/x/[redacted]"},
		{"token query", "/admin/login", "token=abc&next=%2Fadmin", "/admin/login?token=[redacted]&next=%2Fadmin"},
		{"camelCase token key", "/a", "accessToken=zz&status=open", "/a?accessToken=[redacted]&status=open"},
		{"csrf and password keys", "/a", "csrf=1&password=hunter2&Client_Secret=s", "/a?csrf=[redacted]&password=[redacted]&Client_Secret=[redacted]"},
		{"token-looking value under any key", "/a", "q=" + room, "/a?q=[redacted]"},
		{"encoded token-looking value", "/a", "q=x%20mrr_1", "/a?q=[redacted]"},
		{"token as a key", "/a", room + "=1&b=2", "/a?[redacted]&b=2"},
		{"an embedded room's session", "/rooms/0193/pdf/d1", "room_session=MTc5NT%3D%3D&embed_event=completed", "/rooms/0193/pdf/d1?room_session=[redacted]&embed_event=completed"},
		{"harmless query kept", "/api/v1/markup-rooms", "status=open&cursor=abc&limit=5", "/api/v1/markup-rooms?status=open&cursor=abc&limit=5"},
		{"key without value", "/a", "token&x=1", "/a?token&x=1"},
		{"empty path", "", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := URL(tc.path, tc.query); got != tc.want {
				t.Errorf("URL(%q, %q) = %q, want %q", tc.path, tc.query, got, tc.want)
			}
		})
	}
}

func TestRawURL(t *testing.T) {
	for raw, want := range map[string]string{
		"https://hooks.example.com/in?token=abc&v=1":    "https://hooks.example.com/in?token=[redacted]&v=1",
		"https://user:pw@hooks.example.com/in":          "https://hooks.example.com/in",
		"http://127.0.0.1:8080/markup-room/mrr_a_b?x=1": "http://127.0.0.1:8080/markup-room/[redacted]?x=1",
		"https://x.example/%zz":                         "[redacted]",
	} {
		if got := RawURL(raw); got != want {
			t.Errorf("RawURL(%q) = %q, want %q", raw, got, want)
		}
	}
}
