package pdfjob

import (
	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/pdf/anchor"
	"github.com/markuproom/markuproom/models/pdf/detect"
)

// The kinds of job.
const (
	// KindStage checks an upload (repairing or decrypting it when viewers
	// would open it) and reads its detection and fingerprint.
	KindStage = "stage"
	// KindEdit deletes or moves a page, then reads the result as KindStage.
	KindEdit = "edit"
	// KindDetect reads a stored document's detection.
	KindDetect = "detect"
	// KindFingerprint reads a stored document's template fingerprint.
	KindFingerprint = "fingerprint"
	// KindAnchors places one document's anchor tags.
	KindAnchors = "anchors"
)

// StageArgs are KindStage's arguments; Limits.MaxOutputBytes bounds a
// mended file (the upload limit).
type StageArgs struct {
	Limits pdf.Limits `json:"limits"`
}

// Staged is what reading an upload found: the result of KindStage and KindEdit.
type Staged struct {
	Info      pdf.Info         `json:"info"`
	Detection detect.Detection `json:"detection"`
	// Fingerprint is the template fingerprint (templatematch's binary form).
	Fingerprint []byte `json:"fingerprint"`
	// Mended says the job wrote the repaired or decrypted file to its output.
	Mended    bool     `json:"mended,omitempty"`
	Decrypted bool     `json:"decrypted,omitempty"`
	Repairs   []string `json:"repairs,omitempty"`
}

// Page edits of KindEdit.
const (
	EditDelete = "delete"
	EditMove   = "move"
)

// EditArgs are KindEdit's arguments: Op EditDelete with Page, or EditMove
// with From and To (1-based); Limits.MaxOutputBytes bounds the edited file.
type EditArgs struct {
	Limits pdf.Limits `json:"limits"`
	Op     string     `json:"op"`
	Page   int        `json:"page,omitempty"`
	From   int        `json:"from,omitempty"`
	To     int        `json:"to,omitempty"`
}

// Detected is KindDetect's result.
type Detected struct {
	Info      pdf.Info         `json:"info"`
	Detection detect.Detection `json:"detection"`
}

// Fingerprinted is KindFingerprint's result: the fingerprint, or
// LayoutRead false when the pages could not be read within the caps.
type Fingerprinted struct {
	Fingerprint []byte `json:"fingerprint,omitempty"`
	LayoutRead  bool   `json:"layoutRead"`
}

// AnchorArgs are KindAnchors' arguments.
type AnchorArgs struct {
	Limits  pdf.Limits     `json:"limits"`
	Request anchor.Request `json:"request"`
}
