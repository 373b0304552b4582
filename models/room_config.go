package models

import (
	"database/sql/driver"
)

// RoomConfig says which Markup Room controls are enabled (RoomConfig in the
// OpenAPI document). Every
// flag defaults to true. The editor shows a control only when its flag is
// on, and every room endpoint asks Require before acting, so the UI is never
// the only gate.
type RoomConfig struct {
	IDV            IDVConfig            `json:"idv"`
	Authentication AuthenticationConfig `json:"authentication"`
	Documents      DocumentsConfig      `json:"documents"`
	Participants   ParticipantsConfig   `json:"participants"`
	Templates      TemplatesConfig      `json:"templates"`
}

// IDVConfig groups the identity-verification options.
type IDVConfig struct {
	KBA                bool `json:"kba"`
	CredentialAnalysis bool `json:"credentialAnalysis"`
}

// AuthenticationConfig groups the options of the participant authentication dropdown.
type AuthenticationConfig struct {
	PersonalPassword bool `json:"personalPassword"`
	TwoFactor        bool `json:"twoFactor"`
}

// DocumentsConfig groups the document options.
type DocumentsConfig struct {
	Rename       bool `json:"rename"`
	Edit         bool `json:"edit"`
	AdvancedEdit bool `json:"advancedEdit"`
	// DetectTags (an extension; README, "Tags written into the PDF") places the tags the documents'
	// own text tags and form fields give when the room is created, and when a
	// document is added in the room (AddRoomDocument).
	DetectTags bool `json:"detectTags"`
}

// ParticipantsConfig groups the participant options.
type ParticipantsConfig struct {
	Add    bool `json:"add"`
	Edit   bool `json:"edit"`
	Remove bool `json:"remove"`
}

// TemplatesConfig groups the template options (an extension; README,
// "Templates"): saving the room's layout as a template, and applying one.
type TemplatesConfig struct {
	Save  bool `json:"save"`
	Apply bool `json:"apply"`
}

// DefaultRoomConfig has every flag on.
func DefaultRoomConfig() RoomConfig {
	return RoomConfig{
		IDV:            IDVConfig{KBA: true, CredentialAnalysis: true},
		Authentication: AuthenticationConfig{PersonalPassword: true, TwoFactor: true},
		Documents:      DocumentsConfig{Rename: true, Edit: true, AdvancedEdit: true, DetectTags: true},
		Participants:   ParticipantsConfig{Add: true, Edit: true, Remove: true},
		Templates:      TemplatesConfig{Save: true, Apply: true},
	}
}

// RoomAction is something a Markup Room user may do, gated by one flag.
type RoomAction string

// The actions of a Markup Room, one per flag of RoomConfig.
const (
	ActionSetKBA                RoomAction = "idv.kba"
	ActionSetCredentialAnalysis RoomAction = "idv.credentialAnalysis"
	ActionUsePersonalPassword   RoomAction = "authentication.personalPassword"
	ActionUseTwoFactor          RoomAction = "authentication.twoFactor"
	ActionRenameDocument        RoomAction = "documents.rename"
	ActionEditTags              RoomAction = "documents.edit"
	ActionAdvancedEdit          RoomAction = "documents.advancedEdit"
	ActionAddParticipant        RoomAction = "participants.add"
	ActionEditParticipant       RoomAction = "participants.edit"
	ActionRemoveParticipant     RoomAction = "participants.remove"
	ActionSaveTemplate          RoomAction = "templates.save"
	ActionApplyTemplate         RoomAction = "templates.apply"
)

// RoomActions lists every action, in the order of RoomConfig's flags.
func RoomActions() []RoomAction {
	return []RoomAction{
		ActionSetKBA, ActionSetCredentialAnalysis, ActionUsePersonalPassword, ActionUseTwoFactor,
		ActionRenameDocument, ActionEditTags, ActionAdvancedEdit,
		ActionAddParticipant, ActionEditParticipant, ActionRemoveParticipant,
		ActionSaveTemplate, ActionApplyTemplate,
	}
}

// Allows reports whether the configuration enables action.
func (c RoomConfig) Allows(action RoomAction) bool {
	switch action {
	case ActionSetKBA:
		return c.IDV.KBA
	case ActionSetCredentialAnalysis:
		return c.IDV.CredentialAnalysis
	case ActionUsePersonalPassword:
		return c.Authentication.PersonalPassword
	case ActionUseTwoFactor:
		return c.Authentication.TwoFactor
	case ActionRenameDocument:
		return c.Documents.Rename
	case ActionEditTags:
		return c.Documents.Edit
	case ActionAdvancedEdit:
		return c.Documents.AdvancedEdit
	case ActionAddParticipant:
		return c.Participants.Add
	case ActionEditParticipant:
		return c.Participants.Edit
	case ActionRemoveParticipant:
		return c.Participants.Remove
	case ActionSaveTemplate:
		return c.Templates.Save
	case ActionApplyTemplate:
		return c.Templates.Apply
	}
	return false
}

// ForbiddenError is a room action its configuration turns off; it matches ErrForbidden.
type ForbiddenError struct{ Action RoomAction }

// Error implements error: the action for a log line (the problem writer
// words the refusal, docs/words.md).
func (e *ForbiddenError) Error() string {
	return "forbidden: config." + string(e.Action) + " is false"
}

// Is makes errors.Is(err, ErrForbidden) true.
func (e *ForbiddenError) Is(target error) bool { return target == ErrForbidden }

// Require returns a *ForbiddenError when the configuration turns action off.
func (c RoomConfig) Require(action RoomAction) error {
	if c.Allows(action) {
		return nil
	}
	return &ForbiddenError{Action: action}
}

// ApplyParticipantRules enforces the room's two rules on a participant: with
// both identity checks off, neither is required; with both authentication
// options off, the authentication type is "none".
func (c RoomConfig) ApplyParticipantRules(p *Participant) {
	if !c.IDV.KBA && !c.IDV.CredentialAnalysis {
		f := false
		p.KBARequired, p.CredAnalysisRequired = &f, &f
	}
	if !c.Authentication.PersonalPassword && !c.Authentication.TwoFactor {
		p.AuthenticationType = AuthNone
		p.PersonalPasswordHash, p.PersonalPasswordQuestion = nil, nil
	}
}

// Value implements driver.Valuer.
func (c RoomConfig) Value() (driver.Value, error) { return jsonColumn(c) }

// Scan implements sql.Scanner. A group the stored value lacks (a room made
// before the group existed) keeps its defaults.
func (c *RoomConfig) Scan(src any) error {
	*c = DefaultRoomConfig()
	return scanJSONColumn(src, c, "RoomConfig")
}

// parseRoomConfig merges a request's partial config over the defaults; unknown
// groups or keys and non-boolean values are problems.
func parseRoomConfig(o *jsonObject) RoomConfig {
	c := DefaultRoomConfig()
	groups := []struct {
		name  string
		flags map[string]*bool
	}{
		{"idv", map[string]*bool{"kba": &c.IDV.KBA, "credentialAnalysis": &c.IDV.CredentialAnalysis}},
		{"authentication", map[string]*bool{"personalPassword": &c.Authentication.PersonalPassword, "twoFactor": &c.Authentication.TwoFactor}},
		{"documents", map[string]*bool{"rename": &c.Documents.Rename, "edit": &c.Documents.Edit, "advancedEdit": &c.Documents.AdvancedEdit, "detectTags": &c.Documents.DetectTags}},
		{"participants", map[string]*bool{"add": &c.Participants.Add, "edit": &c.Participants.Edit, "remove": &c.Participants.Remove}},
		{"templates", map[string]*bool{"save": &c.Templates.Save, "apply": &c.Templates.Apply}},
	}
	for _, g := range groups {
		group, ok := o.object(g.name, false)
		if !ok {
			continue
		}
		for name, target := range g.flags {
			if v := group.boolean(name); v != nil {
				*target = *v
			}
		}
		group.finish()
	}
	o.finish()
	return c
}
