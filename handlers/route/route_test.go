package route_test

import (
	"testing"

	"github.com/markuproom/markuproom/handlers/route"
)

func TestPathFillsParametersInOrder(t *testing.T) {
	cases := []struct {
		got, want string
	}{
		{route.Home.Path(), "/"},
		{route.Admin.Path(), "/admin"},
		{route.RoomTag.Path("r1", "t 2/3"), "/rooms/r1/tags/t%202%2F3"},
		{route.AdminUserDisable.Path("7", "9"), "/admin/organizations/7/users/9/disable"},
		{route.RoomPageMove.Path("r", "0", "3"), "/rooms/r/documents/0/pages/3/move"},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("Path = %q, want %q", c.got, c.want)
		}
	}
}

func TestPathPanicsOnAWrongCount(t *testing.T) {
	for _, call := range []func(){
		func() { route.RoomTag.Path("only-the-room") },
		func() { route.Room.Path("r", "extra") },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("no panic on a wrong number of values")
				}
			}()
			call()
		}()
	}
}
