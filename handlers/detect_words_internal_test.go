package handlers

import (
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models/pdf/detect"
	"github.com/markuproom/markuproom/models/pdfjob"
	"github.com/markuproom/markuproom/web/i18n"
)

// A detection problem is worded from its code and specifics: in English
// byte for byte the detail the API always gave, and in every language with
// its specifics (the option as written, the limit, the page) kept.
func TestDetectProblemsAreWordedWithTheirSpecifics(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		p    detect.DetectProblem
		en   string
		keep []string // in every language
	}{
		{detect.DetectProblem{Code: detect.ProblemEmpty}, "The tag names no type.", nil},
		{detect.DetectProblem{Code: detect.ProblemUnknownType, Args: detect.ProblemArgs{Value: "autograph"}},
			`"autograph" is not a tag type.`, []string{`"autograph"`}},
		{detect.DetectProblem{Code: detect.ProblemBadSigner, Args: detect.ProblemArgs{Value: "101", Max: 100}},
			`The signer "101" is not a participant position from 1 to 100.`, []string{`"101"`, "100"}},
		{detect.DetectProblem{Code: detect.ProblemUnknownOption, Args: detect.ProblemArgs{Value: "soon"}},
			`"soon" is not an option (optional, a date format, w=, h=, font=).`, []string{`"soon"`}},
		{detect.DetectProblem{Code: detect.ProblemDateNotAllowed, Args: detect.ProblemArgs{Key: "SIGNATURETEMPLATE"}},
			"A SIGNATURETEMPLATE tag takes no date format.", []string{"SIGNATURETEMPLATE"}},
		{detect.DetectProblem{Code: detect.ProblemDuplicate, Args: detect.ProblemArgs{Value: "required"}},
			`The option "required" is given twice.`, []string{`"required"`}},
		{detect.DetectProblem{Code: detect.ProblemBadSize, Args: detect.ProblemArgs{Key: "h", Value: "99999", Max: 14400}},
			"h=99999 is not a size in points above 0 and at most 14400.", []string{"h=99999", "14400"}},
		{detect.DetectProblem{Code: detect.ProblemBadFontSize, Args: detect.ProblemArgs{Value: "201", Max: 200}},
			"font=201 is not a font size above 0 and at most 200.", []string{"font=201", "200"}},
		{detect.DetectProblem{Code: detect.ProblemUnclosed},
			"The tag opens with {{ but does not close with }} on the same line.", []string{"{{", "}}"}},
		{detect.DetectProblem{Page: 11, Code: detect.ProblemTooManyTags, Args: detect.ProblemArgs{Count: 2200, Max: 500, MaxDocument: 5000}},
			"2200 more tags were found from page 11 on and dropped: at most 500 tags a page and 5000 a document are kept.",
			[]string{"2200", "11", "500", "5000"}},
		{detect.DetectProblem{Page: 7, Code: detect.ProblemTooManyProblems, Args: detect.ProblemArgs{Count: 650, Max: 100, MaxDocument: 1000}},
			"650 more unreadable tags were found from page 7 on and not listed: at most 100 a page and 1000 a document are listed.",
			[]string{"650", "7", "100", "1000"}},
		{detect.DetectProblem{Code: pdfjob.ProblemLayoutNotRead},
			"The pages could not be read for tags; place the tags by hand.", nil},
		{detect.DetectProblem{Code: pdfjob.ProblemLayoutNotRead, Args: detect.ProblemArgs{TooComplex: true}},
			"The pages are too complex to read for tags within this server's limits; place the tags by hand.", nil},
	} {
		if got := sayDetectProblem(i18n.English(), c.p); got != c.en {
			t.Errorf("%s in English:\n got %q\nwant %q", c.p.Code, got, c.en)
		}
		for _, lang := range i18n.Languages {
			got := sayDetectProblem(i18n.New(lang), c.p)
			if strings.HasPrefix(got, "problem.detect.") || (lang.Tag != "en" && got == c.en) {
				t.Errorf("%s in %s: %q is not worded in the language", c.p.Code, lang.Tag, got)
			}
			for _, k := range c.keep {
				if !strings.Contains(got, k) {
					t.Errorf("%s in %s: %q lost %q", c.p.Code, lang.Tag, got, k)
				}
			}
		}
	}
}
