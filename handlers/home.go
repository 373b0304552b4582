package handlers

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/handlers/route"
	"github.com/markuproom/markuproom/templates"
)

func (h *publicHandler) home(c *gin.Context) {
	render(c, http.StatusOK, templates.Home(h.page(c, "Prepare documents for e-signature"), templates.HomeView{
		BaseURL:    h.cfg.BaseURL,
		APIDocURL:  route.OpenAPI.Path(),
		UploadPath: route.APIUpload.Path(), RoomsPath: route.APIRooms.Path(),
		TransactionPath: route.APITransactions.Path() + "/{id}",
	}))
}
