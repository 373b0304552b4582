package handlers

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/handlers/route"
)

// ChangingRoutes lists the "METHOD /pattern" of every route of a handler
// New built whose method changes something (POST, PUT, PATCH, DELETE) —
// but a room's presence (which tags a window has selected): it changes no
// data of the organization, only what the room's other windows outline
// while it is open, and is kept out of the audit trail on purpose
// (docs/live.md, "Presence").
func ChangingRoutes(h http.Handler) []string {
	var out []string
	for _, r := range h.(*gin.Engine).Routes() {
		switch r.Method {
		case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
			if r.Path == string(route.RoomPresence) {
				continue
			}
			out = append(out, r.Method+" "+r.Path)
		}
	}
	return out
}
