package detect

import "strings"

// Tag types (models.TagTypes) that detection proposes (the models package lists
// them all; a test checks that these are among them).
const (
	TypeSignature            = "SIGNATURETEMPLATE"
	TypeSignHere             = "SIGNHERETAGTEMPLATEANNOTATION"
	TypeInitials             = "INITIALSTEMPLATE"
	TypeInitialHere          = "INITIALHERETAGTEMPLATEANNOTATION"
	TypeDate                 = "DATETEMPLATE"
	TypeFullName             = "FULLNAMETEMPLATE"
	TypeFreeText             = "FREEFORMTEXTTAGTEMPLATEANNOTATION"
	TypeTextNote             = "TEXTANNOT"
	TypeDocumentID           = "DOCUMENTIDTEMPLATE"
	TypeDisclaimer           = "DISCLAIMERTEMPLATE"
	TypeNotarySessionID      = "NOTARYSESSIONIDTEMPLATE"
	TypeCommissionID         = "COMMISSIONIDTEMPLATE"
	TypeCommissionExpiration = "COMMISSIONEXPIRATIONTEMPLATE"
	TypeCommissionStamp      = "COMMISSIONSTAMPTEMPLATE"
	TypeSeal                 = "SEALTAGTEMPLATEANNOTATION"
	TypeNotaryTitle          = "NOTARYTITLETEMPLATE"
	TypeNotaryCounty         = "NOTARYCOUNTYTEMPLATE"
	TypeNotaryState          = "NOTARYSTATETEMPLATE"
)

// typeNames maps the names a text tag may use (issue #20, item 2) to types.
var typeNames = map[string]string{
	"signature":             TypeSignature,
	"sign-here":             TypeSignHere,
	"initials":              TypeInitials,
	"initial-here":          TypeInitialHere,
	"date":                  TypeDate,
	"name":                  TypeFullName,
	"full-name":             TypeFullName,
	"document-id":           TypeDocumentID,
	"notary-session-id":     TypeNotarySessionID,
	"commission-id":         TypeCommissionID,
	"commission-expiration": TypeCommissionExpiration,
	"disclaimer":            TypeDisclaimer,
	"commission-stamp":      TypeCommissionStamp,
	"notary-seal":           TypeSeal,
	"notary-title":          TypeNotaryTitle,
	"notary-county":         TypeNotaryCounty,
	"notary-state":          TypeNotaryState,
	"text":                  TypeFreeText,
	"note":                  TypeTextNote,
}

// TypeNames returns the text tag names and the type each stands for.
func TypeNames() map[string]string {
	out := make(map[string]string, len(typeNames))
	for k, v := range typeNames {
		out[k] = v
	}
	return out
}

// size is a tag type's default size in points, as the editor's palette gives
// it (models.TagTypes; a test keeps them equal).
type size struct{ w, h float64 }

var typeSizes = map[string]size{
	TypeSignature: {144, 36}, TypeSignHere: {120, 30}, TypeInitials: {60, 30}, TypeInitialHere: {72, 30},
	TypeDate: {96, 20}, TypeFullName: {144, 20}, TypeFreeText: {160, 20}, TypeTextNote: {160, 40},
	TypeDocumentID: {144, 20}, TypeDisclaimer: {216, 54}, TypeNotarySessionID: {144, 20},
	TypeCommissionID: {120, 20}, TypeCommissionExpiration: {120, 20}, TypeCommissionStamp: {180, 72},
	TypeSeal: {108, 108}, TypeNotaryTitle: {144, 20}, TypeNotaryCounty: {120, 20}, TypeNotaryState: {96, 20},
}

// TypeSize returns the default width and height of a tag type.
func TypeSize(t string) (w, h float64) {
	s := typeSizes[t]
	return s.w, s.h
}

// resolveType maps a text tag's type word to a tag type: a type code
// (SIGNATURETEMPLATE, …) or one of typeNames, both case-insensitive.
func resolveType(word string) (string, bool) {
	w := strings.ToLower(strings.TrimSpace(word))
	if t, ok := typeNames[w]; ok {
		return t, true
	}
	if _, ok := typeSizes[strings.ToUpper(w)]; ok {
		return strings.ToUpper(w), true
	}
	return "", false
}

// dateFormats are the tag date formats (models.DateFormats; a
// test keeps them equal).
var dateFormats = []string{"MM/DD/YYYY", "DD/MM/YYYY", "MM/DD/YY", "DD/MM/YY", "MMMM do, yyyy", "full", "MMMM", "do", "yyyy", "YYYY", "MMMM do"}

// DateFormats returns the date formats a text tag may name.
func DateFormats() []string { return append([]string(nil), dateFormats...) }

// isDateType tells whether a type takes a date format.
func isDateType(t string) bool { return t == TypeDate || t == TypeCommissionExpiration }

// maxFontSize and maxSide bound the w=, h= and font= options (models'
// MaxTagFontSize and MaxCoordinate).
const (
	maxFontSize = 200
	maxSide     = 14400
)
