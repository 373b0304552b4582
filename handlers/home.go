package handlers

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/templates"
)

func (h *Handler) home(c *gin.Context) {
	render(c, http.StatusOK, templates.Home(h.page(c, "Prepare documents for e-signature"), templates.HomeView{
		BaseURL:   h.cfg.BaseURL,
		APIDocURL: "/api/openapi.json",
	}))
}
