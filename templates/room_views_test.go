package templates

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/markuproom/markuproom/web/i18n"
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

func TestRoomHeadingNamesTheTransactionNeverByAnID(t *testing.T) {
	roomID := "01a20b42-bdbc-7780-a2b4-2fe18041d5b4"
	cases := []struct {
		ref    string
		titles []string
		want   string
	}{
		{"HOUSE-2291", []string{"Purchase agreement"}, "HOUSE-2291"},
		{"  ", []string{"Purchase agreement"}, "Purchase agreement"},
		{roomID, []string{"Purchase agreement", "Disclosure", "Addendum"}, "Purchase agreement + 2 more"},
		{"7c9e6679-7425-40de-944b-e07fc1f90ae7", []string{"Lease"}, "Lease"},
		{"", nil, "New Markup Room"},
	}
	for _, c := range cases {
		if got := i18n.English().Say(RoomHeading(c.ref, roomID, c.titles)); got != c.want {
			t.Errorf("RoomHeading(%q, %v) = %q, want %q", c.ref, c.titles, got, c.want)
		}
	}
}

func TestRoomMetaNamesDocumentsByTitle(t *testing.T) {
	v := RoomView{SenderName: "Sam Sender", SenderEmail: "sam@example.com", ExpiresAt: time.Date(2026, 11, 25, 1, 54, 30, 0, time.UTC),
		Documents: []RoomDocumentView{{Title: "Purchase agreement"}, {Title: "Disclosure"}}}
	want := "Purchase agreement · Disclosure — prepared for Sam Sender (sam@example.com) · link valid until 25 Nov 2026, 01:54 UTC"
	if got := RoomMeta(context.Background(), v); got != want {
		t.Errorf("RoomMeta = %q, want %q", got, want)
	}
	v.Summary = &RoomSummaryView{}
	if got := RoomMeta(context.Background(), v); strings.Contains(got, "valid until") {
		t.Errorf("a completed room's header still speaks of the link: %q", got)
	}
	if got := PageLabel(context.Background(), "Purchase agreement", 2, 3); got != "Purchase agreement · page 2 of 3" {
		t.Errorf("PageLabel = %q", got)
	}
}
