package handlers

import (
	"context"
	"io"

	"github.com/markuproom/markuproom/models"
)

// roomHandler serves the Markup Room (/markup-room/:token and /rooms/:id/…)
// to the browser that opened a room link. It may touch only the stores
// declared here.
type roomHandler struct {
	*site
	rooms        RoomSessionStore
	participants RoomParticipantStore
	documents    RoomDocumentStore
	tags         RoomTagStore
	templates    RoomTemplateStore
	files        DocumentFiles
	events       RoomEventStore
}

// RoomSessionStore opens a room by its link, reads its workspace and
// completes it.
type RoomSessionStore interface {
	OpenRoom(ctx context.Context, token string) (*models.Room, error)
	RoomWorkspace(ctx context.Context, roomID string) (*models.RoomWorkspace, error)
	RoomDocument(ctx context.Context, roomID, documentID string) (*models.Document, error)
	RoomCheck(ctx context.Context, ws *models.RoomWorkspace) (*models.SessionCheck, error)
	CompleteRoom(ctx context.Context, roomID string, notifyEmail bool) (*models.Transaction, error)
}

// RoomParticipantStore edits a room's participants.
type RoomParticipantStore interface {
	AddRoomParticipant(ctx context.Context, roomID string, f models.ParticipantForm) (string, error)
	UpdateRoomParticipant(ctx context.Context, roomID, participantID string, f models.ParticipantForm) error
	RemoveRoomParticipant(ctx context.Context, roomID, participantID string) (*models.RoomRemoval, error)
	RestoreRoomRemoval(ctx context.Context, roomID, removalID, documents, participants string) (*models.RoomRemoval, error)
	MoveRoomParticipant(ctx context.Context, roomID, participantID string, to int) error
}

// RoomDocumentStore edits a room's documents and their pages.
type RoomDocumentStore interface {
	CheckRoomUpload(ctx context.Context, roomID string) error
	AddRoomDocument(ctx context.Context, roomID string, u *models.StagedUpload, title string) (*models.AddedRoomDocument, error)
	RenameRoomDocument(ctx context.Context, roomID string, position int, title string) error
	RemoveRoomDocument(ctx context.Context, roomID string, pos int, current string) (*models.RoomRemoval, error)
	DeleteRoomPage(ctx context.Context, roomID string, docPos, page int, current string) (*models.PageEdit, error)
	MoveRoomPage(ctx context.Context, roomID string, docPos, from, to int, current string) (*models.PageEdit, error)
	RestoreRoomDocument(ctx context.Context, roomID string, docPos int, version, current string) (*models.PageEdit, error)
	ReviseRoomDocument(ctx context.Context, roomID string, docPos int, u *models.StagedUpload, newDocumentID, current string) (*models.RoomRevision, error)
}

// RoomTagStore edits the tags placed on a room's pages.
type RoomTagStore interface {
	AddRoomTag(ctx context.Context, roomID string, docPos int, f models.RoomTagForm) (*models.TagEdit, error)
	UpdateRoomTag(ctx context.Context, roomID, tagID string, f models.RoomTagForm) (*models.TagEdit, error)
	DeleteRoomTag(ctx context.Context, roomID, tagID string, version int) error
	ApplyRoomTagBatch(ctx context.Context, roomID string, b *models.TagBatch) (*models.TagBatchResult, error)
	DecideRoomSuggestions(ctx context.Context, roomID string, d *models.SuggestionDecisions) error
}

// DocumentFiles stages an upload and reads a stored PDF's bytes.
type DocumentFiles interface {
	uploadStager
	contentOpener
}

// uploadStager reads an upload into a checked, not yet saved PDF (stageMultipart).
type uploadStager interface {
	StageUpload(ctx context.Context, r io.Reader, maxBytes int64, fileName string) (*models.StagedUpload, error)
}

// contentOpener reads a stored PDF's bytes (servePDF).
type contentOpener interface {
	OpenDocumentContent(ctx context.Context, d *models.Document) (models.DocumentContent, error)
}
