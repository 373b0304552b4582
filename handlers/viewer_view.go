package handlers

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/tagtype"
	"github.com/markuproom/markuproom/static"
	"github.com/markuproom/markuproom/templates"
	"github.com/markuproom/markuproom/web/i18n"
)

// signerPalette is how many signer colours the stylesheet defines (signer-c0 …).
const signerPalette = 10

// viewerSigners knows each participant's name, initials and colour.
type viewerSigners map[string]templates.TagView

func newViewerSigners(ps []models.Participant) viewerSigners {
	out := make(viewerSigners, len(ps))
	for i := range ps {
		out[ps[i].ParticipantID] = templates.TagView{
			SignerName: ps[i].FullName(), Initials: initials(ps[i].FirstName, ps[i].LastName), ColorClass: signerClass(i),
		}
	}
	return out
}

// signerClass is the colour class of the participant at position i (-1: none).
func signerClass(i int) string {
	if i < 0 {
		return "signer-none"
	}
	return "signer-c" + strconv.Itoa(i%signerPalette)
}

func initials(first, last string) string {
	var b strings.Builder
	for _, s := range []string{first, last} {
		if r, _ := utf8.DecodeRuneInString(strings.TrimSpace(s)); r != utf8.RuneError {
			b.WriteRune(unicode.ToUpper(r))
		}
	}
	return b.String()
}

// tagView shapes one stored tag for the viewer, its type named by its
// catalog ids.
func (s viewerSigners) tagView(t *models.Tag, editable bool) templates.TagView {
	v := templates.TagView{
		ID: t.TagID, Version: max(t.Version, 1), Type: t.Type, Page: t.Page, X: num(t.X), Y: num(t.Y), W: num(t.Width), H: num(t.Height),
		SignerID: t.SignerID, ColorClass: signerClass(-1), Required: t.Required != nil && *t.Required,
		DateFormat: deref(t.DateFormat), StateFormat: deref(t.StateFormat), Editable: editable,
	}
	if tt, ok := tagtype.ByCode(t.Type); ok {
		v.Label = i18n.Msg(tt.Key.Name)
		if tt.IsDate {
			v.DateWords, v.DefaultFormat = i18n.Msg(tt.Key.Words), tt.DefaultFormat
		}
	}
	if t.FontSize != nil {
		v.FontSize = num(*t.FontSize)
	}
	if who, ok := s[t.SignerID]; ok && t.SignerID != "" {
		v.SignerName, v.Initials, v.ColorClass = who.SignerName, who.Initials, who.ColorClass
	}
	return v
}

// viewerView shapes a transaction's documents for the page viewer. uploads
// gives each document's page geometry (by upload id); contentURL is where the
// browser fetches a document's PDF.
func viewerView(assets *static.Assets, t *models.Transaction, uploads map[string]*models.Document, contentURL func(pos int) string, editable bool) templates.ViewerView {
	v := newViewerView(assets, editable)
	signers := newViewerSigners(t.Participants)
	for _, d := range t.Documents {
		byPage := map[int][]templates.TagView{}
		for i := range d.Tags {
			byPage[d.Tags[i].Page] = append(byPage[d.Tags[i].Page], signers.tagView(&d.Tags[i], editable))
		}
		var known []pdf.Page
		if upload := uploads[d.DocumentID]; upload != nil {
			known = upload.Pages
		}
		v.Documents = append(v.Documents, templates.ViewerDocument{
			ID: d.DocumentID, Position: d.Position, Title: d.Title, ContentURL: contentURL(d.Position),
			Pages: viewerPages(d.Pages, known, byPage),
		})
	}
	return v
}

// newViewerView is a viewer without documents: where its scripts, fonts,
// icons and tag types are.
func newViewerView(assets *static.Assets, editable bool) templates.ViewerView {
	return templates.ViewerView{
		Editable:  editable,
		PDFJSURL:  assets.URL("vendor/pdfjs/pdf.min.mjs"),
		WorkerURL: assets.URL("vendor/pdfjs/pdf.worker.min.mjs"),
		FontsURL:  "/static/vendor/pdfjs/standard_fonts/",
		IconsURL:  assets.URL("img/tags.svg"),
		TagTypes:  tagTypes(),
	}
}

// viewerPages shapes count pages of a document, with their tags by page
// number: each page's displayed size (after /Rotate), crop box and rotation
// from known, US Letter for a page known does not hold.
func viewerPages(count int, known []pdf.Page, byPage map[int][]templates.TagView) []templates.ViewerPage {
	out := make([]templates.ViewerPage, 0, count)
	for n := 1; n <= count; n++ {
		p := pdf.Page{CropBox: pdf.Box{URX: 612, URY: 792}} // US Letter when the upload is unknown
		if n <= len(known) {
			p = known[n-1]
		}
		w, h := p.CropBox.Width(), p.CropBox.Height()
		if p.Rotate == 90 || p.Rotate == 270 {
			w, h = h, w
		}
		box := p.CropBox
		out = append(out, templates.ViewerPage{
			Number: n, Width: num(w), Height: num(h), Rotate: p.Rotate, Tags: byPage[n],
			Box: num(box.LLX) + " " + num(box.LLY) + " " + num(box.URX) + " " + num(box.URY),
		})
	}
	return out
}

// tagTypes are the viewer's data-tag-types: every tag type of
// models/tagtype as the editor reads it (templates.ViewerTagType), its name
// and words by their catalog ids (the view writes them).
func tagTypes() []templates.ViewerTagType {
	types := tagtype.All()
	out := make([]templates.ViewerTagType, len(types))
	for i, tt := range types {
		out[i] = templates.ViewerTagType{
			Code: tt.Code, LabelID: tt.Key.Name, ShortID: tt.Key.Name, Group: tt.Group, Width: tt.DefaultWidth, Height: tt.DefaultHeight,
			Icon: tt.Icon, Date: tt.IsDate, Format: tt.DefaultFormat, State: tt.IsState,
		}
		if tt.Key.Short != "" {
			out[i].ShortID = tt.Key.Short
		}
		if tt.IsDate {
			out[i].WordsID = tt.Key.Words
		}
	}
	return out
}
