package pdftest

import (
	"fmt"
	"strings"

	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/tagtype"
)

// Field type flags of the corpus' form fields.
const (
	ffRequired   = 1 << 1
	ffRadio      = 1 << 15
	ffPushButton = 1 << 16
)

// Corpus returns the detection corpus: documents of varied layouts with
// what a detector must find in each. It is deterministic: the files under
// models/pdf/testdata/corpus are its output.
func Corpus() []CorpusDoc {
	docs := []struct {
		name  string
		build func(*docWriter)
	}{
		{"agreement-lines-below", agreementLinesBelow},
		{"underscores-inline", underscoresInline},
		{"rules-right", rulesRight},
		{"filled-underlines", filledUnderlines},
		{"boxes-right", boxesRight},
		{"boxes-around", boxesAround},
		{"two-columns", twoColumns},
		{"table-grid", tableGrid},
		{"table-open", tableOpen},
		{"rotated-90", rotated(90)},
		{"rotated-270", rotated(270)},
		{"rotated-180-cropped", rotated180Cropped},
		{"cropped", cropped},
		{"notary-acknowledgment-california", notaryCalifornia},
		{"notary-acknowledgment-individual", notaryIndividual},
		{"notary-jurat", notaryJurat},
		{"form-fields", formFields},
		{"form-fields-hierarchy", formFieldsHierarchy},
		{"form-fields-rotated", formFieldsRotated},
		{"text-tags-helvetica", textTagsHelvetica},
		{"text-tags-times-courier", textTagsTimesCourier},
		{"text-tags-differences", textTagsDifferences},
		{"text-tags-type0", textTagsType0},
		{"text-tags-kerned", textTagsKerned},
		{"text-tags-malformed", textTagsMalformed},
		{"mixed-three-pages", mixedThreePages},
		{"prose-only", proseOnly},
		{"loan-borrowers", loanBorrowers},
		{"lease-initials", leaseInitials},
		{"long-contract", longContract},
		{"hard-layouts", hardLayouts},
		{"held-out-blocks", heldOutBlocks},
		{"held-out-consent", heldOutConsent},
		{"held-out-bill-of-sale", heldOutBillOfSale},
	}
	out := make([]CorpusDoc, 0, len(docs))
	for _, d := range docs {
		w := newDoc()
		d.build(w)
		out = append(out, CorpusDoc{Name: d.name, PDF: w.bytes(), Expected: w.expected})
	}
	return out
}

// boilerplate is body text for the documents.
var boilerplate = []string{
	"This Agreement is entered into as of the effective date stated below by and between",
	"the parties identified on this page. Each party represents that it has the authority",
	"to enter into this Agreement and that its signature below is binding upon it.",
	"The parties agree that the date of signature shall be the date written by each party",
	"next to its name, and that initials on each page confirm that page was reviewed.",
	"Notices shall be sent to the addresses set out in Schedule 1 of this Agreement.",
}

func heading(p *pageWriter, title string) float64 {
	p.text(HelvBold, 16, 72, 720, title)
	return p.paragraph(Helv, 10.5, 72, 690, boilerplate...)
}

// agreementLinesBelow: signature blocks with the label under the line.
func agreementLinesBelow(w *docWriter) {
	for range 2 {
		p := w.letterPage()
		heading(p, "Services Agreement")
		p.lineLabel(Helv, 9, 72, 220, 216, "Signature", tagtype.Signature)
		p.lineLabel(Helv, 9, 324, 220, 144, "Date", tagtype.Date)
		p.lineLabel(Helv, 9, 72, 160, 216, "Printed name", tagtype.FullName)
		p.lineLabel(Helv, 9, 324, 160, 108, "Initials", tagtype.Initials)
	}
}

// underscoresInline: "Signature: ______" in one string.
func underscoresInline(w *docWriter) {
	p := w.letterPage()
	y := heading(p, "Consent Form")
	p.underscoreLabel(Times, 12, 72, y-40, "Signature:", tagtype.Signature, 30)
	p.underscoreLabel(Times, 12, 380, y-40, "Date:", tagtype.Date, 14)
	p.underscoreLabel(Times, 12, 72, y-80, "Print Name:", tagtype.FullName, 30)
	p.underscoreLabel(Times, 12, 72, y-120, "Initials:", tagtype.Initials, 8)
}

// rulesRight: labels with a drawn line to their right on the same baseline.
func rulesRight(w *docWriter) {
	p := w.letterPage()
	y := heading(p, "Acknowledgement of Receipt")
	p.labelLine(Helv, 10, 72, y-50, "Signature", tagtype.Signature, 220)
	p.labelLine(Helv, 10, 380, y-50, "Date", tagtype.Date, 120)
	p.labelLine(Helv, 10, 72, y-90, "Name", tagtype.FullName, 220)
	p.labelLine(Helv, 10, 380, y-90, "Initials", tagtype.Initials, 80)
}

// filledUnderlines: word-processor style underlines (thin filled rectangles)
// after labels with colons, in Times.
func filledUnderlines(w *docWriter) {
	p := w.letterPage()
	y := heading(p, "Employment Offer Acceptance")
	for i, f := range []struct{ label, typ string }{{"Employee Signature:", tagtype.Signature}, {"Date:", tagtype.Date}, {"Employee Name:", tagtype.FullName}} {
		yy := y - 40 - float64(i)*36
		b := p.text(Times, 11, 72, yy, f.label)
		p.filledRule(b.URX+6, b.URX+206, yy-2)
		p.expect("label", f.typ, 0, f.label, pdf.Box{LLX: b.URX + 6, LLY: yy - 2, URX: b.URX + 206, URY: yy - 2})
	}
}

// boxesRight: labels to the left of drawn boxes.
func boxesRight(w *docWriter) {
	p := w.letterPage()
	y := heading(p, "Application")
	for i, f := range []struct {
		label, typ string
		w, h       float64
	}{{"Signature", tagtype.Signature, 220, 36}, {"Date", tagtype.Date, 120, 22}, {"Full name", tagtype.FullName, 220, 22}} {
		yy := y - 60 - float64(i)*56
		b := p.text(Helv, 10, 72, yy, f.label)
		box := pdf.Box{LLX: b.URX + 10, LLY: yy - f.h/2 + 3, URX: b.URX + 10 + f.w, URY: yy + f.h/2 + 3}
		p.rect(box)
		p.expect("label", f.typ, 0, f.label, box)
	}
}

// boxesAround: small labels printed inside the top-left corner of boxes.
func boxesAround(w *docWriter) {
	p := w.letterPage()
	y := heading(p, "Delivery Receipt")
	for i, f := range []struct{ label, typ string }{{"Signature", tagtype.Signature}, {"Date", tagtype.Date}} {
		box := pdf.Box{LLX: 72 + float64(i)*260, LLY: y - 110, URX: 72 + float64(i)*260 + 230, URY: y - 60}
		p.rect(box)
		p.text(Helv, 7, box.LLX+3, box.URY-9, f.label)
		p.expect("label", f.typ, 0, f.label, box)
	}
}

// twoColumns: prose in two columns, then buyer and seller blocks side by side.
func twoColumns(w *docWriter) {
	p := w.letterPage()
	p.text(HelvBold, 15, 72, 730, "Purchase and Sale Agreement")
	left := []string{"1. Sale. Seller agrees to sell and", "Buyer agrees to buy the goods", "described in Exhibit A.", "2. Price. The price is stated", "in Exhibit A and is payable on", "delivery of the goods."}
	right := []string{"3. Delivery. Delivery shall be", "made to Buyer's premises on", "the date agreed in writing.", "4. Title. Title passes to Buyer", "on payment in full of the", "price stated in Exhibit A."}
	p.paragraph(Times, 11, 72, 700, left...)
	p.paragraph(Times, 11, 320, 700, right...)
	p.text(HelvBold, 10, 72, 560, "BUYER")
	p.text(HelvBold, 10, 320, 560, "SELLER")
	p.lineLabel(Helv, 8, 72, 510, 200, "Buyer Signature", tagtype.Signature)
	p.lineLabel(Helv, 8, 320, 510, 200, "Seller Signature", tagtype.Signature)
	p.lineLabel(Helv, 8, 72, 460, 200, "Printed Name", tagtype.FullName)
	p.lineLabel(Helv, 8, 320, 460, 200, "Printed Name", tagtype.FullName)
	p.lineLabel(Helv, 8, 72, 410, 120, "Date", tagtype.Date)
	p.lineLabel(Helv, 8, 320, 410, 120, "Date", tagtype.Date)
}

// tableGrid: a ruled table whose header names fields that are already
// filled in; nothing to suggest there. One signature line follows.
func tableGrid(w *docWriter) {
	p := w.letterPage()
	p.text(HelvBold, 14, 72, 730, "Attendance Record")
	cols := []float64{72, 232, 392, 540}
	rows := []float64{700, 680, 660, 640, 620}
	for _, y := range rows {
		p.hline(cols[0], cols[len(cols)-1], y)
	}
	for _, x := range cols {
		p.vline(x, rows[len(rows)-1], rows[0])
	}
	cells := [][]string{{"Name", "Signature", "Date"}, {"A. Smith", "on file", "01/05/2026"}, {"B. Jones", "on file", "01/06/2026"}, {"C. Brown", "on file", "01/07/2026"}}
	for r, row := range cells {
		for c, s := range row {
			f := Helv
			if r == 0 {
				f = HelvBold
			}
			p.text(f, 10, cols[c]+4, rows[r]-14, s)
		}
	}
	p.labelLine(Helv, 10, 72, 560, "Supervisor Signature", tagtype.Signature, 200)
}

// tableOpen: an invoice table with only horizontal rules and column heads
// that are not labels, then a signature line.
func tableOpen(w *docWriter) {
	p := w.letterPage()
	p.text(HelvBold, 14, 72, 730, "Invoice 2026-114")
	p.hline(72, 540, 700)
	for i, h := range []string{"Description", "Quantity", "Unit price", "Amount"} {
		p.text(HelvBold, 10, 72+float64(i)*120, 688, h)
	}
	p.hline(72, 540, 682)
	for r, row := range [][]string{{"Consulting", "10", "120.00", "1,200.00"}, {"Travel", "1", "340.00", "340.00"}} {
		for c, s := range row {
			p.text(Helv, 10, 72+float64(c)*120, 668-float64(r)*18, s)
		}
	}
	p.hline(72, 540, 630)
	p.text(Helv, 10, 72, 600, "Received in good order:")
	p.lineLabel(Helv, 9, 72, 540, 200, "Customer Signature", tagtype.Signature)
	p.lineLabel(Helv, 9, 320, 540, 140, "Date", tagtype.Date)
}

// rotated draws a landscape page stored as portrait with /Rotate, with
// labels and text tags laid out for the reader.
func rotated(rot int) func(*docWriter) {
	return func(w *docWriter) {
		l := pdf.Box{URX: 612, URY: 792}
		p := w.page(pdf.Page{MediaBox: l, CropBox: l, Rotate: rot})
		// Display space is 792 wide and 612 high.
		p.text(HelvBold, 16, 72, 540, "Landscape Certificate")
		p.paragraph(Helv, 11, 72, 510, "This certificate is issued to the participant named below", "and is valid when signed and dated.")
		p.lineLabel(Helv, 9, 72, 300, 240, "Signature", tagtype.Signature)
		p.lineLabel(Helv, 9, 400, 300, 160, "Date", tagtype.Date)
		p.tag(Helv, 11, 72, 200, "{{initials|1}}", tagtype.Initials, 1)
		p.tag(Helv, 11, 400, 200, "{{full-name|2}}", tagtype.FullName, 2)
		p.labelLine(Helv, 10, 72, 120, "Witness Signature", tagtype.Signature, 200)
		// w= and h= are display sizes from the text's bottom-left as shown.
		b := p.text(Helv, 10, 400, 120, "{{text|1|w=150|h=24}}")
		p.expect("text-tag", tagtype.FreeText, 1, "{{text|1|w=150|h=24}}", pdf.Box{LLX: b.LLX, LLY: b.LLY, URX: b.LLX + 150, URY: b.LLY + 24})
	}
}

// rotated180Cropped: upside-down page with a CropBox and a MediaBox that
// does not start at the origin.
func rotated180Cropped(w *docWriter) {
	p := w.page(pdf.Page{MediaBox: pdf.Box{LLX: 50, LLY: 50, URX: 662, URY: 842}, CropBox: pdf.Box{LLX: 80, LLY: 90, URX: 640, URY: 800}, Rotate: 180})
	// Display space: 560 x 710.
	p.text(HelvBold, 14, 40, 660, "Return Authorization")
	p.paragraph(Helv, 10, 40, 630, "Please sign and date this form and return it with the goods.")
	p.tag(Helv, 10, 40, 560, "{{signature|1}}", tagtype.Signature, 1)
	p.underscoreLabel(Helv, 10, 40, 480, "Date:", tagtype.Date, 20)
	p.lineLabel(Helv, 9, 40, 400, 200, "Printed name", tagtype.FullName)
}

// cropped: a page whose CropBox hides a margin holding a text tag and a
// label that must not be found.
func cropped(w *docWriter) {
	p := w.page(pdf.Page{MediaBox: pdf.Box{URX: 612, URY: 792}, CropBox: pdf.Box{LLX: 36, LLY: 72, URX: 576, URY: 756}})
	// Display space: 540 x 684; the hidden margin is below y 0 and left of x 0.
	p.text(HelvBold, 14, 36, 640, "Change Order")
	p.paragraph(Helv, 10, 36, 610, "The changes listed in the attached schedule are approved.")
	b := p.text(Helv, 10, 36, 520, "{{signature|1|w=180|h=30}}")
	p.expect("text-tag", tagtype.Signature, 1, "{{signature|1|w=180|h=30}}", pdf.Box{LLX: b.LLX, LLY: b.LLY, URX: b.LLX + 180, URY: b.LLY + 30})
	p.tag(Helv, 10, 300, 520, "{{date|1|MM/DD/YYYY}}", tagtype.Date, 1)
	p.lineLabel(Helv, 9, 36, 420, 200, "Initials", tagtype.Initials)
	p.text(Helv, 10, 36, -30, "{{signature|2}}") // below the CropBox
	p.hline(-30, -30+150, 300)                   // left of it
	p.text(Helv, 9, -30, 300-11, "Signature")    // its label
}

// notaryCalifornia is laid out like California's all-purpose acknowledgment.
func notaryCalifornia(w *docWriter) {
	p := w.letterPage()
	p.rect(pdf.Box{LLX: 72, LLY: 660, URX: 540, URY: 720})
	p.paragraph(Helv, 8, 78, 708,
		"A notary public or other officer completing this certificate verifies only the identity of the individual",
		"who signed the document to which this certificate is attached, and not the truthfulness, accuracy, or",
		"validity of that document.")
	p.text(Times, 11, 72, 630, "State of California")
	p.text(Times, 11, 300, 630, ")")
	p.underscoreLabel(Times, 11, 72, 610, "County of", tagtype.NotaryCounty, 24)
	p.text(Times, 11, 300, 610, ")")
	y := p.paragraph(Times, 11, 72, 580,
		"On ______________ before me, ______________________, Notary Public, personally appeared",
		"______________________________________, who proved to me on the basis of satisfactory evidence",
		"to be the person(s) whose name(s) is/are subscribed to the within instrument and acknowledged to me",
		"that he/she/they executed the same in his/her/their authorized capacity(ies).",
		"I certify under PENALTY OF PERJURY under the laws of the State of California that the foregoing",
		"paragraph is true and correct.",
		"WITNESS my hand and official seal.")
	p.underscoreLabel(Times, 11, 72, y-30, "Signature", tagtype.Signature, 32)
	b := p.text(Times, 11, 400, y-30, "(Seal)")
	cx, cy := (b.LLX+b.URX)/2, (b.LLY+b.URY)/2
	p.expect("label", tagtype.Seal, 0, "(Seal)", pdf.Box{LLX: cx - 54, LLY: cy - 54, URX: cx + 54, URY: cy + 54})
}

// notaryIndividual: an individual acknowledgment with the notary block
// below lines.
func notaryIndividual(w *docWriter) {
	p := w.letterPage()
	p.text(TimesBold, 12, 200, 730, "INDIVIDUAL ACKNOWLEDGMENT")
	p.underscoreLabel(Times, 11, 72, 690, "STATE OF", tagtype.NotaryState, 22)
	p.underscoreLabel(Times, 11, 72, 670, "COUNTY OF", tagtype.NotaryCounty, 22)
	y := p.paragraph(Times, 11, 72, 640,
		"The foregoing instrument was acknowledged before me this ____ day of __________, 20___,",
		"by ____________________________, who is personally known to me or who has produced",
		"____________________ as identification.")
	p.lineLabel(Times, 10, 300, y-50, 230, "Notary Public", tagtype.Signature)
	p.lineLabel(Times, 10, 300, y-100, 230, "Printed Name", tagtype.FullName)
	p.labelLine(Times, 10, 300, y-140, "My commission expires:", tagtype.CommissionExpiration, 110)
	p.labelLine(Times, 10, 300, y-170, "Commission No.", tagtype.CommissionID, 120)
	b := p.text(Times, 10, 100, y-120, "(SEAL)")
	cx, cy := (b.LLX+b.URX)/2, (b.LLY+b.URY)/2
	p.expect("label", tagtype.Seal, 0, "(SEAL)", pdf.Box{LLX: cx - 54, LLY: cy - 54, URX: cx + 54, URY: cy + 54})
}

// notaryJurat: affidavit with the affiant's signature, then a jurat.
func notaryJurat(w *docWriter) {
	p := w.letterPage()
	p.text(HelvBold, 14, 72, 730, "Affidavit of Identity")
	y := p.paragraph(Times, 11, 72, 700,
		"I, the undersigned, being first duly sworn, state that the facts set out in this affidavit are true",
		"and correct to the best of my knowledge and belief.")
	p.lineLabel(Times, 10, 72, y-40, 230, "Affiant Signature", tagtype.Signature)
	p.lineLabel(Times, 10, 340, y-40, 150, "Date", tagtype.Date)
	y = p.paragraph(Times, 11, 72, y-90, "Subscribed and sworn to before me on the date written below.")
	p.lineLabel(Times, 10, 72, y-40, 230, "Signature of Notary Public", tagtype.Signature)
	p.labelLine(Times, 10, 340, y-40, "Date", tagtype.Date, 120)
	p.labelLine(Times, 10, 72, y-80, "My Commission Expires", tagtype.CommissionExpiration, 120)
	p.labelLine(Times, 10, 340, y-80, "Commission Number", tagtype.CommissionID, 100)
}

// formFields: an AcroForm with the usual fields; the printed labels next
// to the fields must not become suggestions as well.
func formFields(w *docWriter) {
	p := w.letterPage()
	y := heading(p, "Vendor Registration")
	fields := []struct {
		ft    string
		flags int
		name  string
		typ   string
		label string
		w, h  float64
	}{
		{"Sig", 0, "Signature1", tagtype.Signature, "Signature", 200, 30},
		{"Tx", ffRequired, "Date Signed", tagtype.Date, "Date", 100, 18},
		{"Tx", 0, "PrintedName", tagtype.FullName, "Name", 200, 18},
		{"Tx", 0, "initials", tagtype.Initials, "Initials", 60, 18},
		{"Tx", 0, "Title", tagtype.FreeText, "Title", 160, 18}, // a job title, not the notary's
		{"Tx", 0, "NotaryTitle", tagtype.NotaryTitle, "Notary title", 160, 18},
		{"Tx", 0, "Comments", tagtype.FreeText, "Comments", 300, 18},
		{"Btn", 0, "AgreeTerms", tagtype.FreeText, "I agree", 12, 12},
		{"Ch", 0, "Country", tagtype.FreeText, "Country", 120, 18},
	}
	for i, f := range fields {
		yy := y - 40 - float64(i)*40
		b := p.text(Helv, 10, 72, yy, f.label)
		box := pdf.Box{LLX: 160, LLY: yy - 4, URX: 160 + f.w, URY: yy - 4 + f.h}
		_ = b
		p.hline(box.LLX, box.URX, box.LLY)
		p.field(f.ft, f.flags, f.name, f.typ, 0, box)
	}
}

// formFieldsHierarchy: fields with parents and kids across two pages, a
// hidden widget and a push button that are not tags.
func formFieldsHierarchy(w *docWriter) {
	p1 := w.letterPage()
	heading(p1, "Joint Application")
	p2 := w.letterPage()
	heading(p2, "Joint Application (continued)")
	buyer := w.parentField("Tx", "buyer")
	k1 := p1.widget("Tx", 0, "date", pdf.Box{LLX: 72, LLY: 300, URX: 172, URY: 318}, false, buyer)
	p1.expect("form-field", tagtype.Date, 0, "buyer.date", pdf.Box{LLX: 72, LLY: 300, URX: 172, URY: 318})
	k2 := p2.widget("Tx", 0, "name", pdf.Box{LLX: 72, LLY: 400, URX: 272, URY: 418}, false, buyer)
	p2.expect("form-field", tagtype.FullName, 0, "buyer.name", pdf.Box{LLX: 72, LLY: 400, URX: 272, URY: 418})
	w.setKids(buyer, "Tx", "buyer", k1, k2)
	p1.field("Sig", 0, "signer1.signature", tagtype.Signature, 1, pdf.Box{LLX: 300, LLY: 300, URX: 500, URY: 336})
	p2.field("Sig", 0, "signer2_signature", tagtype.Signature, 2, pdf.Box{LLX: 300, LLY: 400, URX: 500, URY: 436})
	p2.field("Btn", ffRadio, "Choice", tagtype.FreeText, 0, pdf.Box{LLX: 72, LLY: 200, URX: 84, URY: 212})
	p2.widget("Tx", 0, "HiddenDate", pdf.Box{LLX: 72, LLY: 100, URX: 172, URY: 118}, true, 0)
	p2.widget("Btn", ffPushButton, "Reset", pdf.Box{LLX: 300, LLY: 100, URX: 360, URY: 120}, false, 0)
}

// formFieldsRotated: widgets on a page with /Rotate 90.
func formFieldsRotated(w *docWriter) {
	l := pdf.Box{URX: 612, URY: 792}
	p := w.page(pdf.Page{MediaBox: l, CropBox: l, Rotate: 90})
	p.text(HelvBold, 14, 72, 540, "Landscape Form")
	p.field("Sig", 0, "ClientSignature", tagtype.Signature, 0, pdf.Box{LLX: 72, LLY: 300, URX: 300, URY: 340})
	p.field("Tx", 0, "ClientDate", tagtype.Date, 0, pdf.Box{LLX: 400, LLY: 300, URX: 520, URY: 320})
}

// textTagsHelvetica: the grammar's examples at several sizes.
func textTagsHelvetica(w *docWriter) {
	p := w.letterPage()
	y := heading(p, "Tagged Agreement")
	p.tag(Helv, 10, 72, y-30, "{{signature|1}}", tagtype.Signature, 1)
	p.tag(Helv, 12, 320, y-30, "{{date|2|MM/DD/YYYY}}", tagtype.Date, 2)
	p.tag(Helv, 8, 72, y-70, "{{initials|1|optional}}", tagtype.Initials, 1)
	p.tag(Helv, 14, 320, y-70, "{{notary-seal}}", tagtype.Seal, 0)
	b := p.text(Helv, 9, 72, y-110, "{{text|1|w=200|h=18}}")
	p.expect("text-tag", tagtype.FreeText, 1, "{{text|1|w=200|h=18}}", pdf.Box{LLX: b.LLX, LLY: b.LLY, URX: b.LLX + 200, URY: b.LLY + 18})
	p.tag(Helv, 11, 320, y-110, "{{"+tagtype.Signature+"|2}}", tagtype.Signature, 2)
	p.tag(HelvBold, 10, 72, y-150, "{{Full-Name|1|font=12}}", tagtype.FullName, 1)
	p.tag(Helv, 10, 320, y-150, "{{document-id}}", tagtype.DocumentID, 0)
	p.tag(Helv, 10, 72, y-190, "{{note|1}}", tagtype.TextNote, 1)
	p.tag(Helv, 10, 320, y-190, "{{sign-here|2}}", tagtype.SignHere, 2)
	// Drawn twice, a third of a point apart, as fake bold: one tag.
	p.tag(Helv, 10, 72, y-230, "{{signature|2}}", tagtype.Signature, 2)
	p.text(Helv, 10, 72.3, y-230, "{{signature|2}}")
}

// textTagsTimesCourier: tags inside sentences, in Times and Courier.
func textTagsTimesCourier(w *docWriter) {
	p := w.letterPage()
	p.text(TimesBold, 14, 72, 730, "Statement")
	lead := "Signed by the tenant: "
	b := p.text(Times, 11, 72, 690, lead+"{{signature|1}}"+" on this day.")
	x := b.LLX + width(Times, 11, lead)
	p.expect("text-tag", tagtype.Signature, 1, "{{signature|1}}", emBox(Times, 11, x, 690, width(Times, 11, "{{signature|1}}")))
	p.tag(Courier, 9, 72, 650, "{{date|1|DD/MM/YYYY}}", tagtype.Date, 1)
	p.tag(Courier, 14, 72, 610, "{{commission-expiration||MMMM do, yyyy}}", tagtype.CommissionExpiration, 0)
	p.tag(Times, 7, 72, 580, "{{notary-county}}", tagtype.NotaryCounty, 0)
	// Tags are often written in white, or as invisible text: still tags.
	p.ops.WriteString("1 1 1 rg\n")
	p.tag(Times, 10, 300, 580, "{{notary-title}}", tagtype.NotaryTitle, 0)
	p.ops.WriteString("0 g 3 Tr\n")
	p.tag(Times, 10, 420, 580, "{{commission-id}}", tagtype.CommissionID, 0)
	p.ops.WriteString("0 Tr\n")
	lead = "Landlord: "
	b = p.text(Courier, 10, 72, 540, lead+"{{initials|2}}  {{date|2|yyyy}}")
	x = b.LLX + width(Courier, 10, lead)
	p.expect("text-tag", tagtype.Initials, 2, "{{initials|2}}", emBox(Courier, 10, x, 540, width(Courier, 10, "{{initials|2}}")))
	x += width(Courier, 10, "{{initials|2}}  ")
	p.expect("text-tag", tagtype.Date, 2, "{{date|2|yyyy}}", emBox(Courier, 10, x, 540, width(Courier, 10, "{{date|2|yyyy}}")))
}

// textTagsDifferences: tags in a font with a custom /Differences encoding.
func textTagsDifferences(w *docWriter) {
	p := w.letterPage()
	p.text(HelvBold, 14, 72, 730, "Encoded Tags")
	p.tag(HelvDiff, 12, 72, 690, "{{signature|1}}", tagtype.Signature, 1)
	p.tag(HelvDiff, 10, 72, 650, "{{date|1|MM/DD/YY}}", tagtype.Date, 1)
	p.tag(HelvDiff, 10, 300, 650, "{{name|1}}", tagtype.FullName, 1)
}

// textTagsType0: tags in a Type0 font whose codes only ToUnicode explains.
func textTagsType0(w *docWriter) {
	p := w.letterPage()
	p.text(Identity, 14, 72, 730, "Identity Encoded Tags")
	p.tag(Identity, 12, 72, 690, "{{signature|2}}", tagtype.Signature, 2)
	p.tag(Identity, 10, 300, 690, "{{initial-here|2}}", tagtype.InitialHere, 2)
	p.tag(Identity, 10, 72, 650, "{{notary-state}}", tagtype.NotaryState, 0)
}

// textTagsKerned: tags drawn with kerning inside TJ arrays.
func textTagsKerned(w *docWriter) {
	p := w.letterPage()
	p.text(HelvBold, 14, 72, 730, "Kerned Tags")
	b := p.textKerned(Helv, 12, 72, 690, "{{sig", -20.0, "nature|1}}")
	p.expect("text-tag", tagtype.Signature, 1, "{{signature|1}}", b)
	b = p.textKerned(Times, 10, 72, 650, "{{da", 15.0, "te|1|", 40.0, "full}}")
	p.expect("text-tag", tagtype.Date, 1, "{{date|1|full}}", b)
}

// textTagsMalformed: every kind of malformed tag, and one good one.
func textTagsMalformed(w *docWriter) {
	p := w.letterPage()
	p.text(HelvBold, 14, 72, 730, "Malformed Tags")
	bad := []struct{ text, code string }{
		{"{{signature|0}}", "bad_signer"},
		{"{{autograph|1}}", "unknown_type"},
		{"{{date|1|XX/YY}}", "unknown_option"},
		{"{{signature|1|MM/DD/YYYY}}", "date_format_not_allowed"},
		{"{{text|1|w=wide}}", "bad_size"},
		{"{{text|1|font=0}}", "bad_font_size"},
		{"{{date|1|optional|optional}}", "duplicate_option"},
		{"{{}}", "empty_tag"},
		{"{{signature|1", "unclosed_tag"},
	}
	for i, b := range bad {
		p.text(Helv, 10, 72, 690-float64(i)*30, b.text)
		p.problem(b.text, b.code)
	}
	p.tag(Helv, 10, 320, 690, "{{date|1}}", tagtype.Date, 1)
}

// mixedThreePages: text tags, form fields and labels together.
func mixedThreePages(w *docWriter) {
	p1 := w.letterPage()
	heading(p1, "Master Agreement")
	p1.tag(Helv, 10, 72, 300, "{{initials|1}}", tagtype.Initials, 1)
	p1.tag(Helv, 10, 400, 300, "{{initials|2}}", tagtype.Initials, 2)
	p2 := w.letterPage()
	heading(p2, "Master Agreement - Schedule")
	p2.field("Tx", 0, "EffectiveDate", tagtype.Date, 0, pdf.Box{LLX: 72, LLY: 400, URX: 200, URY: 418})
	p2.underscoreLabel(Helv, 10, 72, 300, "Initials:", tagtype.Initials, 10)
	p3 := w.letterPage()
	heading(p3, "Master Agreement - Signatures")
	p3.tag(Helv, 10, 72, 400, "{{signature|1}}", tagtype.Signature, 1)
	p3.lineLabel(Helv, 9, 320, 400, 200, "Signature", tagtype.Signature)
	p3.lineLabel(Helv, 9, 320, 340, 120, "Date", tagtype.Date)
}

// proseOnly: words like "signature" and "date" in prose, headings and a
// rule under a heading, none of which is a field.
func proseOnly(w *docWriter) {
	p := w.letterPage()
	p.text(HelvBold, 14, 72, 730, "Terms and Conditions")
	p.hline(72, 540, 722)
	y := p.paragraph(Times, 11, 72, 700,
		"The date on which this Agreement is signed is the effective date. A signature sent by",
		"electronic means counts as an original signature for every purpose.")
	p.text(HelvBold, 11, 72, y-20, "Date")
	y = p.paragraph(Times, 11, 72, y-40, "All dates are given in the format used in the country of the seller.")
	p.text(HelvBold, 11, 72, y-20, "Signature")
	p.hline(72, 540, y-26)
	p.paragraph(Times, 11, 72, y-46, "A party may sign in counterparts; each signed copy is an original.", "Name and address changes must be notified in writing.")
}

// loanBorrowers: borrower blocks with underscores and party names.
func loanBorrowers(w *docWriter) {
	p := w.letterPage()
	y := heading(p, "Promissory Note")
	for i, who := range []string{"Borrower", "Co-Borrower"} {
		yy := y - 50 - float64(i)*90
		end := p.underscoreLabel(Helv, 10, 72, yy, who+" Signature:", tagtype.Signature, 28)
		p.underscoreLabel(Helv, 10, end+20, yy, "Date:", tagtype.Date, 12)
		p.underscoreLabel(Helv, 10, 72, yy-30, who+"'s Printed Name:", tagtype.FullName, 24)
	}
}

// leaseInitials: a footer with initials lines on every page.
func leaseInitials(w *docWriter) {
	for i := range 3 {
		p := w.letterPage()
		heading(p, fmt.Sprintf("Residential Lease - page %d", i+1))
		end := p.labelLine(Helv, 8, 72, 60, "Tenant Initials", tagtype.Initials, 60)
		p.labelLine(Helv, 8, end+40, 60, "Landlord Initials", tagtype.Initials, 60)
	}
}

// longContract: forty pages of prose and a signature page; the largest
// file of the corpus.
func longContract(w *docWriter) {
	for i := range 40 {
		p := w.letterPage()
		p.text(HelvBold, 12, 72, 740, fmt.Sprintf("Article %d", i+1))
		lines := make([]string, 0, 44)
		for k := range 44 {
			lines = append(lines, strings.TrimSpace(fmt.Sprintf("%d.%d %s", i+1, k+1, boilerplate[k%len(boilerplate)])))
		}
		p.paragraph(Times, 10, 72, 715, lines...)
	}
	p := w.letterPage()
	heading(p, "Signatures")
	p.tag(Helv, 10, 72, 300, "{{signature|1}}", tagtype.Signature, 1)
	p.tag(Helv, 10, 320, 300, "{{signature|2}}", tagtype.Signature, 2)
	p.lineLabel(Helv, 9, 72, 200, 200, "Witness Signature", tagtype.Signature)
	p.lineLabel(Helv, 9, 320, 200, 120, "Date", tagtype.Date)
}

// hardLayouts holds layouts the label rules do not cover (a label above its
// line, a label after its line, a label word outside the table); they are
// expected all the same, so the figures count them as misses.
func hardLayouts(w *docWriter) {
	p := w.letterPage()
	y := heading(p, "Field Trip Permission")
	p.text(Helv, 9, 72, y-40, "Parent or guardian signature")
	p.hline(72, 300, y-70)
	p.expect("label", tagtype.Signature, 0, "Parent or guardian signature", pdf.Box{LLX: 72, LLY: y - 70, URX: 300, URY: y - 70})
	p.hline(340, 460, y-70)
	p.text(Helv, 9, 464, y-70, "Date")
	p.expect("label", tagtype.Date, 0, "Date", pdf.Box{LLX: 340, LLY: y - 70, URX: 460, URY: y - 70})
	p.underscoreLabel(Helv, 10, 72, y-120, "Sign:", tagtype.Signature, 24)
	p.underscoreLabel(Helv, 10, 72, y-160, "Emergency contact:", tagtype.FreeText, 24)
}

// heldOutBlocks was written after the label rules were last tuned and is
// not tuned for: a corporate signature block, an "X" line with the label
// under it, a filled-in date and a shaded label cell.
func heldOutBlocks(w *docWriter) {
	p := w.letterPage()
	p.text(HelvBold, 14, 72, 730, "Board Resolution")
	p.text(Helv, 10, 72, 705, "Date: January 5, 2026")
	y := p.paragraph(Times, 11, 72, 680,
		"RESOLVED, that the officers of the Company are authorized to execute the agreement.",
		"Signature on file with the secretary of the Company.")
	p.text(HelvBold, 10, 72, y-20, "ACME HOLDINGS, INC.")
	by := p.underscoreLabel(Times, 11, 72, y-50, "By:", tagtype.Signature, 30)
	_ = by
	p.underscoreLabel(Times, 11, 72, y-75, "Name:", tagtype.FullName, 30)
	p.text(Times, 11, 72, y-100, "Title: ______________________________")
	p.underscoreLabel(Times, 11, 72, y-125, "Date:", tagtype.Date, 30)
	// An "X" line with the label under it.
	x := p.text(Helv, 12, 320, y-60, "X ____________________")
	ux := x.LLX + width(Helv, 12, "X ")
	p.text(Helv, 8, ux, y-74, "Signature of Witness")
	p.expect("label", tagtype.Signature, 0, "Signature of Witness", pdf.Box{LLX: ux, LLY: y - 60 - 1.2, URX: x.URX, URY: y - 60 - 1.2})
	// A shaded cell holding the label, the blank cell beside it.
	fmt.Fprintf(&p.ops, "q %s 0.9 g 72 %s 100 24 re f Q\n", p.cm(), num(y-200))
	p.text(HelvBold, 9, 76, y-192, "Initials")
	box := pdf.Box{LLX: 172, LLY: y - 200, URX: 272, URY: y - 176}
	p.rect(box)
	p.expect("label", tagtype.Initials, 0, "Initials", box)
}

// heldOutConsent was written after the last change to the label rules and
// is not tuned for: a medical consent form.
func heldOutConsent(w *docWriter) {
	p := w.letterPage()
	p.text(HelvBold, 14, 72, 730, "Consent to Treatment")
	p.text(HelvBold, 11, 72, 700, "Patient Information")
	p.hline(72, 540, 696)
	end := p.underscoreLabel(Helv, 10, 72, 675, "Patient Name:", tagtype.FullName, 30)
	p.text(Helv, 10, end+16, 675, "DOB: __________")
	p.text(Helv, 10, 72, 650, "Relationship to patient: ____________________")
	y := p.paragraph(Times, 11, 72, 620,
		"I consent to the treatment described to me and confirm that I was able to ask questions.",
		"I understand that I may withdraw this consent at any time before the treatment starts.")
	p.lineLabel(Helv, 8, 72, y-40, 240, "Signature of Patient or Legal Representative", tagtype.Signature)
	p.underscoreLabel(Helv, 10, 340, y-40, "Date/Time:", tagtype.Date, 16)
	p.underscoreLabel(Helv, 10, 72, y-90, "Witness:", tagtype.Signature, 30)
	p.labelLine(Helv, 10, 72, y-130, "Interpreter's Signature", tagtype.Signature, 200)
}

// heldOutBillOfSale was written before the label rules were extended for
// the first two held-out pages' misses, and is not tuned for: a vehicle
// bill of sale with both parties' blocks side by side, a witness line and a
// notary's block.
func heldOutBillOfSale(w *docWriter) {
	p := w.letterPage()
	p.text(HelvBold, 14, 72, 730, "Vehicle Bill of Sale")
	y := p.paragraph(Times, 11, 72, 705,
		"For the sum stated below, the Seller transfers to the Buyer all rights in the vehicle",
		"described in this bill of sale, free of any lien, and the Buyer accepts it as is.")
	p.text(Times, 11, 72, y-20, "Purchase price: $__________   Odometer reading: __________ miles")
	// The parties' blocks, side by side: a line with the label under it.
	p.lineLabel(Helv, 8, 72, y-80, 200, "Seller's Signature", tagtype.Signature)
	p.lineLabel(Helv, 8, 320, y-80, 200, "Buyer's Signature", tagtype.Signature)
	p.lineLabel(Helv, 8, 72, y-120, 200, "Seller's Printed Name", tagtype.FullName)
	p.lineLabel(Helv, 8, 320, y-120, 200, "Buyer's Printed Name", tagtype.FullName)
	p.lineLabel(Helv, 8, 72, y-160, 120, "Date", tagtype.Date)
	p.lineLabel(Helv, 8, 320, y-160, 120, "Date", tagtype.Date)
	p.underscoreLabel(Times, 11, 72, y-200, "Witness Signature:", tagtype.Signature, 28)
	// The notary's block.
	n := y - 250
	p.text(TimesBold, 11, 72, n, "NOTARY ACKNOWLEDGMENT")
	p.underscoreLabel(Times, 11, 72, n-22, "State of", tagtype.NotaryState, 20)
	p.underscoreLabel(Times, 11, 300, n-22, "County of", tagtype.NotaryCounty, 20)
	p.paragraph(Times, 11, 72, n-46, "Acknowledged before me on the date written above by the persons named above.")
	p.lineLabel(Times, 10, 72, n-100, 200, "Notary Public", tagtype.Signature)
	seal := p.text(Times, 10, 400, n-96, "(SEAL)")
	cx, cy := (seal.LLX+seal.URX)/2, (seal.LLY+seal.URY)/2
	p.expect("label", tagtype.Seal, 0, "(SEAL)", pdf.Box{LLX: cx - 54, LLY: cy - 54, URX: cx + 54, URY: cy + 54})
	p.underscoreLabel(Times, 10, 72, n-130, "My commission expires:", tagtype.CommissionExpiration, 20)
}
