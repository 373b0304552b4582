package handlers

import (
	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/handlers/route"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/templates"
)

func (h *roomHandler) addRoomParticipant(c *gin.Context) error {
	return h.roomChange(c, func(roomID string) (*templates.ParticipantFormView, error) {
		f := participantFormFromRequest(c)
		_, err := h.participants.AddRoomParticipant(c.Request.Context(), roomID, f)
		v := participantFormView("", f)
		v.Action = route.RoomParticipants.Path(roomID)
		return v, err
	})
}

func (h *roomHandler) updateRoomParticipant(c *gin.Context) error {
	return h.roomChange(c, func(roomID string) (*templates.ParticipantFormView, error) {
		f := participantFormFromRequest(c)
		err := h.participants.UpdateRoomParticipant(c.Request.Context(), roomID, c.Param("participantId"), f)
		v := participantFormView(c.Param("participantId"), f)
		v.Action = route.RoomParticipant.Path(roomID, c.Param("participantId"))
		return v, err
	})
}

func participantFormFromRequest(c *gin.Context) models.ParticipantForm {
	return models.ParticipantForm{
		FirstName:                c.PostForm("firstName"),
		MiddleName:               c.PostForm("middleName"),
		LastName:                 c.PostForm("lastName"),
		Email:                    c.PostForm("email"),
		Phone:                    c.PostForm("phone"),
		AuthenticationType:       c.PostForm("authenticationType"),
		TwoFactorContact:         c.PostForm("twoFactorContact"),
		PersonalPasswordQuestion: c.PostForm("personalPasswordQuestion"),
		PersonalPassword:         c.PostForm("personalPassword"),
		KBARequired:              c.PostForm("kbaRequired") != "",
		CredAnalysisRequired:     c.PostForm("credAnalysisRequired") != "",
		Locale:                   c.PostForm("locale"),
	}
}

// moveRoomParticipant changes a participant's place in the signing order:
// POST /rooms/:id/participants/:participantId/move with the form field "to".
func (h *roomHandler) moveRoomParticipant(c *gin.Context) error {
	id, err := h.roomPost(c)
	if err != nil {
		return err
	}
	to, ok := models.ParseIndex(c.PostForm("to"))
	if !ok {
		return models.Invalid("#/to", "invalid_type", "problem.room.participant_to")
	}
	if err := h.participants.MoveRoomParticipant(c.Request.Context(), id, c.Param("participantId"), to); err != nil {
		return err
	}
	return h.afterRoomChange(c, id)
}
