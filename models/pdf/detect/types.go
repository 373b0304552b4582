package detect

import (
	"strings"

	"github.com/markuproom/markuproom/models/tagtype"
)

// typeNames maps the names a text tag may use (issue #20, item 2) to tag
// types (models/tagtype).
var typeNames = map[string]string{
	"signature":             tagtype.Signature,
	"sign-here":             tagtype.SignHere,
	"initials":              tagtype.Initials,
	"initial-here":          tagtype.InitialHere,
	"date":                  tagtype.Date,
	"name":                  tagtype.FullName,
	"full-name":             tagtype.FullName,
	"document-id":           tagtype.DocumentID,
	"notary-session-id":     tagtype.NotarySessionID,
	"commission-id":         tagtype.CommissionID,
	"commission-expiration": tagtype.CommissionExpiration,
	"disclaimer":            tagtype.Disclaimer,
	"commission-stamp":      tagtype.CommissionStamp,
	"notary-seal":           tagtype.Seal,
	"notary-title":          tagtype.NotaryTitle,
	"notary-county":         tagtype.NotaryCounty,
	"notary-state":          tagtype.NotaryState,
	"text":                  tagtype.FreeText,
	"note":                  tagtype.TextNote,
}

// TypeNames returns the text tag names and the type each stands for.
func TypeNames() map[string]string {
	out := make(map[string]string, len(typeNames))
	for k, v := range typeNames {
		out[k] = v
	}
	return out
}

// resolveType maps a text tag's type word to a tag type: a type code
// (models/tagtype) or one of typeNames, both case-insensitive.
func resolveType(word string) (string, bool) {
	w := strings.ToLower(strings.TrimSpace(word))
	if t, ok := typeNames[w]; ok {
		return t, true
	}
	if t, ok := tagtype.ByCode(strings.ToUpper(w)); ok {
		return t.Code, true
	}
	return "", false
}

// dateFormats are the tag date formats (models.DateFormats; a
// test keeps them equal).
var dateFormats = []string{"MM/DD/YYYY", "DD/MM/YYYY", "MM/DD/YY", "DD/MM/YY", "MMMM do, yyyy", "full", "MMMM", "do", "yyyy", "YYYY", "MMMM do"}

// DateFormats returns the date formats a text tag may name.
func DateFormats() []string { return append([]string(nil), dateFormats...) }

// maxFontSize and maxSide bound the w=, h= and font= options (models'
// MaxTagFontSize and MaxCoordinate); maxSigner is the highest participant
// position a tag may name.
const (
	maxFontSize = 200
	maxSide     = 14400
	maxSigner   = 100
)
