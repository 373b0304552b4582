package handlers

import (
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/pdf/detect"
	"github.com/markuproom/markuproom/models/pdfjob"
	"github.com/markuproom/markuproom/web/i18n"
)

// detectMessage is a detection problem's words as data: the catalog id of
// its code and its specifics (docs/words.md). The ids are written whole so
// the catalog tests find them.
func detectMessage(p detect.DetectProblem) models.Message {
	a := p.Args
	switch p.Code {
	case detect.ProblemEmpty:
		return models.Msg("problem.detect.empty_tag")
	case detect.ProblemUnknownType:
		return models.Msg("problem.detect.unknown_type", "value", models.Quoted(a.Value))
	case detect.ProblemBadSigner:
		return models.Msg("problem.detect.bad_signer", "value", models.Quoted(a.Value), "max", a.Max)
	case detect.ProblemUnknownOption:
		return models.Msg("problem.detect.unknown_option", "value", models.Quoted(a.Value))
	case detect.ProblemDateNotAllowed:
		return models.Msg("problem.detect.date_format_not_allowed", "type", a.Key)
	case detect.ProblemDuplicate:
		return models.Msg("problem.detect.duplicate_option", "value", models.Quoted(a.Value))
	case detect.ProblemBadSize:
		return models.Msg("problem.detect.bad_size", "key", a.Key, "value", a.Value, "max", a.Max)
	case detect.ProblemBadFontSize:
		return models.Msg("problem.detect.bad_font_size", "value", a.Value, "max", a.Max)
	case detect.ProblemUnclosed:
		return models.Msg("problem.detect.unclosed_tag")
	case detect.ProblemTooManyTags:
		return models.Msg("problem.detect.too_many_tags", "dropped", a.Count, "page", p.Page, "max", a.Max, "maxDocument", a.MaxDocument)
	case detect.ProblemTooManyProblems:
		return models.Msg("problem.detect.too_many_problems", "dropped", a.Count, "page", p.Page, "max", a.Max, "maxDocument", a.MaxDocument)
	case pdfjob.ProblemLayoutNotRead:
		if a.TooComplex {
			return models.Msg("problem.detect.layout_too_complex")
		}
		return models.Msg("problem.detect.layout_not_read")
	}
	return models.Msg("problem.detect.layout_not_read")
}

// sayDetectProblem is a detection problem in l's language, at most
// detect.MaxDetailRunes runes.
func sayDetectProblem(l *i18n.Localizer, p detect.DetectProblem) string {
	return pdf.CutRunes(say(l, detectMessage(p)), detect.MaxDetailRunes)
}

// detectionJSON is a document's detection as the API and MCP answer it:
// its tags, and its problems each with an English detail.
type detectionJSON struct {
	Tags     []detect.DetectedTag `json:"tags"`
	Problems []detectProblemJSON  `json:"problems"`
}

// detectProblemJSON is one problem of detectionJSON.
type detectProblemJSON struct {
	Page   int    `json:"page"`
	Text   string `json:"text"`
	Code   string `json:"code"`
	Detail string `json:"detail"`
}

// detectionOut is found as the API answers it, worded by l (English for
// the API and MCP).
func detectionOut(l *i18n.Localizer, found *detect.Detection) detectionJSON {
	out := detectionJSON{Tags: found.Tags, Problems: make([]detectProblemJSON, len(found.Problems))}
	if out.Tags == nil {
		out.Tags = []detect.DetectedTag{}
	}
	for i, p := range found.Problems {
		out.Problems[i] = detectProblemJSON{Page: p.Page, Text: p.Text, Code: p.Code, Detail: sayDetectProblem(l, p)}
	}
	return out
}
