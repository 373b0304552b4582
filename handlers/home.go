package handlers

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/handlers/route"
	"github.com/markuproom/markuproom/templates"
	"github.com/markuproom/markuproom/web/i18n"
)

func (h *publicHandler) home(c *gin.Context) {
	render(c, http.StatusOK, templates.Home(h.page(c, i18n.Msg("home.page_title")), templates.HomeView{
		BaseURL:    h.cfg.BaseURL,
		APIDocURL:  route.OpenAPI.Path(),
		UploadPath: route.APIUpload.Path(), RoomsPath: route.APIRooms.Path(),
		TransactionPath: route.APITransactions.Path() + "/{id}",
	}))
}
