package handlers

import "testing"

// Only a console page of this site is remembered for after the sign-in.
func TestIsAdminPage(t *testing.T) {
	t.Parallel()
	for next, want := range map[string]bool{
		"/admin": true, "/admin/audit?limit=5": true, "/admin/transactions/01a2": true,
		"/admin/login": false, "/adminx": false, "/": false, "//evil.example/admin": false,
		"https://evil.example/admin": false, "/admin\\..\\x": false, "/admin/\r\nSet-Cookie: x": false,
		"/admin/../rooms/x": false, "/admin/%2e%2e/%2e%2e/evil": false, "/admin/./audit": false, "/admin/audit/": true,
		"http:/admin": false, "/admin?next=//evil.example": true,
	} {
		if got := isAdminPage(next); got != want {
			t.Errorf("isAdminPage(%q) = %v, want %v", next, got, want)
		}
	}
}
