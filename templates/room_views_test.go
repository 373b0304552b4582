package templates

import (
	"reflect"
	"testing"
)

func TestEmailParts(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"robin.seller@example.com", []string{"robin", ".seller@", "example", ".com"}},
		{"pat@example.com", []string{"pat@", "example", ".com"}},
		{"a@b", []string{"a@", "b"}},
		{"no-at-sign", []string{"no-at-sign"}},
		{".lead@x.", []string{".lead@", "x", "."}},
		{"", nil},
	}
	for _, tt := range tests {
		if got := emailParts(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("emailParts(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestEmailHTML(t *testing.T) {
	got := emailHTML(`a.b<c@ex-ample.com`)
	want := `<span>a</span><wbr><span>.b&lt;c@</span><wbr><span>ex-ample</span><wbr><span>.com</span>`
	if got != want {
		t.Errorf("emailHTML = %s, want %s", got, want)
	}
}
