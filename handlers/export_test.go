package handlers

import (
	"net/http"

	"github.com/gin-gonic/gin"
)

// ChangingRoutes lists the "METHOD /pattern" of every route of a handler
// New built whose method changes something (POST, PUT, PATCH, DELETE).
func ChangingRoutes(h http.Handler) []string {
	var out []string
	for _, r := range h.(*gin.Engine).Routes() {
		switch r.Method {
		case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
			out = append(out, r.Method+" "+r.Path)
		}
	}
	return out
}
