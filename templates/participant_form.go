package templates

import (
	"context"
	"sort"
)

// participantFields are the participant dialog's fields in the order they
// appear, with the catalog id of the label each error names.
var participantFields = []struct{ Name, Label string }{
	{"firstName", "room.participant.first_name"},
	{"middleName", "room.participant.middle_name"},
	{"lastName", "room.participant.last_name"},
	{"email", "room.participant.email"},
	{"phone", "room.participant.phone"},
	{"authenticationType", "room.participant.authentication"},
	{"twoFactorContact", "room.participant.two_factor_contact"},
	{"locale", "room.participant.locale"},
	{"personalPasswordQuestion", "room.participant.password_question"},
	{"personalPassword", "room.participant.password"},
	{"kbaRequired", "room.participant.kba"},
	{"credAnalysisRequired", "room.participant.credential_analysis"},
}

// FieldErrorView is one error of a form: the field it marks (its element id
// and label; both empty when no field of the form holds it) and the message.
type FieldErrorView struct {
	FieldID, Label, Message string
}

// fieldID is the id of a participant dialog's input for the form field name.
func fieldID(f ParticipantFormView, name string) string {
	return f.DialogID + "-" + name
}

// errorID is the id of the message that describes the field's error.
func errorID(f ParticipantFormView, name string) string {
	return f.DialogID + "-" + name + "-error"
}

// participantErrors lists a refused dialog's errors in the order of its
// fields; errors about no field of the dialog come last, with no link.
func participantErrors(ctx context.Context, f ParticipantFormView) []FieldErrorView {
	var out []FieldErrorView
	known := map[string]bool{}
	for _, fld := range participantFields {
		known[fld.Name] = true
		if msg := f.Errors[fld.Name]; msg != "" {
			out = append(out, FieldErrorView{FieldID: fieldID(f, fld.Name), Label: t(ctx, fld.Label), Message: msg})
		}
	}
	var other []string
	for name := range f.Errors {
		if !known[name] && f.Errors[name] != "" {
			other = append(other, name)
		}
	}
	sort.Strings(other)
	for _, name := range other {
		out = append(out, FieldErrorView{Message: f.Errors[name]})
	}
	return out
}

// describedBy is a field's aria-describedby: its error message, if any, then its hint ids.
func describedBy(f ParticipantFormView, name string, hints ...string) string {
	ids := ""
	if f.Errors[name] != "" {
		ids = errorID(f, name)
	}
	for _, h := range hints {
		if h == "" {
			continue
		}
		if ids != "" {
			ids += " "
		}
		ids += h
	}
	return ids
}

// passwordHintID is the id of the "a password is set" hint ("" when no password is stored).
func passwordHintID(f ParticipantFormView) string {
	if !f.HasPassword {
		return ""
	}
	return f.DialogID + "-personalPassword-hint"
}
