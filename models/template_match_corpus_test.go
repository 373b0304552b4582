package models_test

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
	"github.com/markuproom/markuproom/models/templatematch"
)

// The template matching corpus (docs/decisions.md, "Template matching"):
// forms written by the test, filled in as staff would fill them, sent
// through the upload's reading of their pages, fingerprinted, indexed and
// queried as the upload's answer would be.

// minListedScore is the least score a template match is listed with.
const minListedScore = 0.6

// filling is what one copy of a form is filled in with.
type filling map[string]string

// The same form filled in three ways: other names, addresses, amounts and
// dates, of other lengths (the paragraphs wrap differently).
var purchaseFillings = []filling{
	{"date": "March 3, 2026", "buyer": "Jonathan A. Whitfield", "buyer2": "Emily R. Whitfield", "seller": "Margaret Olsen",
		"address": "1428 Elm Street, Springfield, IL 62704", "parcel": "14-22-301-017", "price": "$412,500.00",
		"deposit": "$10,000.00", "closing": "April 17, 2026", "lender": "First Prairie Bank", "agent": "Carla Mendes",
		"brokerage": "Lakeside Realty", "days": "10", "county": "Sangamon"},
	{"date": "November 21, 2025", "buyer": "Li Wei", "buyer2": "Zhang Min", "seller": "Robert and Alice Thornbury-Hughes",
		"address": "77 Birch Lane, Apt 4B, Shelbyville, KY 40065", "parcel": "208-11-09", "price": "$289,000",
		"deposit": "$5,500", "closing": "January 9, 2026", "lender": "Kentucky Home Mortgage Company", "agent": "Sam O'Neill",
		"brokerage": "Bluegrass Homes and Land", "days": "14", "county": "Shelby"},
	{"date": "July 4, 2026", "buyer": "Fatima Nkemelu-Okafor", "buyer2": "Chinedu Okafor", "seller": "Grant Holdings LLC",
		"address": "9 Harbor View Road, Portland, ME 04101", "parcel": "R-7731", "price": "$1,075,000.00",
		"deposit": "$50,000.00", "closing": "August 28, 2026", "lender": "Casco Bay Credit Union", "agent": "Pierre Gagnon",
		"brokerage": "Coastal Properties", "days": "7", "county": "Cumberland"},
}

// A different form of the same page count and size, from the same office
// (the same letterhead and footer), filled in two ways.
var leaseFillings = []filling{
	{"date": "February 1, 2026", "landlord": "Margaret Olsen", "tenant": "Jonathan A. Whitfield", "address": "1428 Elm Street, Springfield, IL 62704",
		"rent": "$1,850.00", "deposit": "$1,850.00", "start": "March 1, 2026", "end": "February 28, 2027", "agent": "Carla Mendes", "days": "5", "pets": "one cat"},
	{"date": "June 15, 2026", "landlord": "Grant Holdings LLC", "tenant": "Li Wei", "address": "77 Birch Lane, Apt 4B, Shelbyville, KY 40065",
		"rent": "$1,200", "deposit": "$2,400", "start": "July 1, 2026", "end": "June 30, 2027", "agent": "Sam O'Neill", "days": "3", "pets": "none"},
}

// page is one page of a form: paragraphs of running text (wrapped) and
// label lines whose value is drawn apart, as a form filler draws it.
type formPage struct {
	paragraphs []string
	fields     [][2]string // label, {placeholder}
	signatures []string    // lines drawn under the paragraphs
}

var purchaseForm = []formPage{
	{
		paragraphs: []string{
			"RESIDENTIAL REAL ESTATE PURCHASE AGREEMENT",
			"This Residential Real Estate Purchase Agreement (the \"Agreement\") is made and entered into on {date} by and between {buyer} and {buyer2} (together, the \"Buyer\") and {seller} (the \"Seller\"), for the purchase and sale of the real property described below.",
			"1. PROPERTY. The Seller agrees to sell and the Buyer agrees to buy the land, together with all improvements and fixtures attached to it, commonly known as {address}, in the County of {county}, tax parcel number {parcel}, including all built-in appliances, window coverings, lighting fixtures and landscaping, unless excluded in writing.",
			"2. PURCHASE PRICE. The total purchase price is {price}, payable as follows: an earnest money deposit of {deposit} delivered within {days} days after acceptance to the escrow holder named below, and the balance in cash or by a loan from {lender} at closing.",
			"3. FINANCING. This Agreement is contingent upon the Buyer obtaining a written loan commitment on terms acceptable to the Buyer. If the Buyer cannot obtain such commitment within thirty days after acceptance, either party may cancel this Agreement by written notice, and the earnest money shall be returned to the Buyer.",
			"4. CLOSING. Closing shall take place on or before {closing} at the offices of the escrow holder, or at such other place as the parties agree. Possession shall be delivered to the Buyer at closing, free of tenants and personal property not included in the sale.",
		},
		fields: [][2]string{{"Listing agent:", "{agent}"}, {"Brokerage:", "{brokerage}"}, {"Escrow deposit:", "{deposit}"}},
	},
	{
		paragraphs: []string{
			"5. INSPECTIONS. The Buyer may, at the Buyer's expense, have the property inspected by licensed professionals within {days} days after acceptance. If the Buyer is not satisfied with the results, the Buyer may cancel this Agreement by written notice before the end of that period and receive a full refund of the earnest money.",
			"6. TITLE. The Seller shall convey marketable title by general warranty deed, free of liens and encumbrances except easements and restrictions of record that do not interfere with the present use of the property. The Seller shall furnish an owner's policy of title insurance in the amount of the purchase price.",
			"7. PRORATIONS. Real estate taxes, association dues, rents and utilities shall be prorated as of the date of closing. The Seller shall pay any special assessments levied before the date of this Agreement.",
			"8. DEFAULT. If the Buyer defaults, the Seller may keep the earnest money as liquidated damages as the Seller's sole remedy. If the Seller defaults, the Buyer may seek specific performance or the return of the earnest money.",
			"9. ENTIRE AGREEMENT. This Agreement contains the entire agreement of the parties and may be changed only by a writing signed by both parties. Time is of the essence of every provision of this Agreement.",
		},
		signatures: []string{"Buyer: {buyer}    Signature: ____________________    Date: __________",
			"Buyer: {buyer2}    Signature: ____________________    Date: __________",
			"Seller: {seller}    Signature: ____________________    Date: __________"},
	},
}

var leaseForm = []formPage{
	{
		paragraphs: []string{
			"RESIDENTIAL LEASE AGREEMENT",
			"This Residential Lease Agreement (the \"Lease\") is made on {date} between {landlord} (the \"Landlord\") and {tenant} (the \"Tenant\"). The Landlord rents to the Tenant, and the Tenant rents from the Landlord, the dwelling located at {address} (the \"Premises\").",
			"1. TERM. The term of this Lease begins on {start} and ends on {end}. If the Tenant remains in possession after the end of the term with the Landlord's consent, the tenancy continues from month to month on the same terms.",
			"2. RENT. The Tenant shall pay monthly rent of {rent} in advance on the first day of each month. Rent received more than {days} days late incurs a late charge of five percent of the monthly rent. A returned check is charged as a late payment.",
			"3. SECURITY DEPOSIT. On signing this Lease the Tenant pays a security deposit of {deposit}. The Landlord may apply it to unpaid rent and to repair damage beyond normal wear and tear, and shall return the balance with an itemized statement within thirty days after the Tenant moves out.",
			"4. USE AND OCCUPANCY. The Premises shall be used only as a private residence for the Tenant and the Tenant's immediate family. The Tenant shall not assign this Lease or sublet any part of the Premises without the Landlord's written consent.",
		},
		fields: [][2]string{{"Managing agent:", "{agent}"}, {"Pets allowed:", "{pets}"}, {"Monthly rent:", "{rent}"}},
	},
	{
		paragraphs: []string{
			"5. MAINTENANCE. The Tenant shall keep the Premises clean and sanitary, dispose of all garbage properly, and promptly report any defect or needed repair to the Landlord. The Landlord shall keep the roof, walls, plumbing, heating and electrical systems in good repair.",
			"6. ACCESS. The Landlord may enter the Premises at reasonable times, after giving at least twenty-four hours' notice, to inspect, make repairs or show the Premises to prospective tenants or buyers, and at any time without notice in an emergency.",
			"7. UTILITIES. The Tenant shall pay for electricity, gas, telephone and internet service. The Landlord shall pay for water, sewer and trash collection.",
			"8. NOTICES. Notices under this Lease shall be in writing and delivered by hand or by mail to the addresses stated above. Either party may change its address by notice to the other.",
			"9. WHOLE LEASE. This Lease is the whole agreement between the Landlord and the Tenant. Any change must be in writing and signed by both of them.",
		},
		signatures: []string{"Landlord: {landlord}    Signature: ____________________    Date: __________",
			"Tenant: {tenant}    Signature: ____________________    Date: __________"},
	},
}

// Two forms of labels with their values drawn apart, of the same size and
// with half their labels in common: a form of labels keeps its labels' words
// (a capitalised run followed by ':'), so the two stay apart.
var intakeForm = []formPage{{
	paragraphs: []string{"PATIENT INTAKE FORM", "Please complete every section. Information you give is kept confidential under our privacy policy."},
	fields: [][2]string{{"First Name:", "{first}"}, {"Last Name:", "{last}"}, {"Date of Birth:", "{born}"}, {"Home Address:", "{address}"},
		{"Phone Number:", "{phone}"}, {"Insurance Provider:", "{insurer}"}, {"Policy Number:", "{policy}"}, {"Primary Physician:", "{doctor}"},
		{"Known Allergies:", "{allergies}"}, {"Current Medications:", "{medications}"}, {"Reason for Visit:", "{reason}"},
		{"Emergency Contact:", "{contact}"}, {"Relationship:", "{relation}"}},
	signatures: []string{"Patient Signature: ____________________    Date: {signed}"},
}}

var applicationForm = []formPage{{
	paragraphs: []string{"EMPLOYMENT APPLICATION", "Please complete every section. An incomplete application may delay its review by our hiring team."},
	fields: [][2]string{{"First Name:", "{first}"}, {"Last Name:", "{last}"}, {"Date of Birth:", "{born}"}, {"Home Address:", "{address}"},
		{"Phone Number:", "{phone}"}, {"Position Applied For:", "{position}"}, {"Available Start Date:", "{start}"}, {"Desired Salary:", "{salary}"},
		{"Previous Employer:", "{employer}"}, {"Years of Experience:", "{years}"}, {"Highest Education:", "{education}"},
		{"Professional Reference:", "{contact}"}, {"Relationship:", "{relation}"}},
	signatures: []string{"Applicant Signature: ____________________    Date: {signed}"},
}}

var intakeFillings = []filling{
	{"first": "Emily", "last": "Whitfield", "born": "04/12/1986", "address": "1428 Elm Street, Springfield, IL 62704", "phone": "(217) 555-0142",
		"insurer": "Blue Prairie Health", "policy": "BPH-2299-118", "doctor": "Dr. Anita Rao", "allergies": "none", "medications": "none",
		"reason": "annual checkup", "contact": "Jonathan Whitfield", "relation": "spouse", "signed": "03/03/2026"},
	{"first": "Chinedu", "last": "Okafor", "born": "11/30/1979", "address": "9 Harbor View Road, Portland, ME 04101", "phone": "207-555-0199",
		"insurer": "Casco Mutual", "policy": "CM77120", "doctor": "Dr. Paul Lemieux", "allergies": "penicillin and latex", "medications": "lisinopril 10 mg daily",
		"reason": "sprained left ankle", "contact": "Fatima Nkemelu-Okafor", "relation": "wife", "signed": "07/04/2026"},
}

var applicationFillings = []filling{
	{"first": "Sam", "last": "O'Neill", "born": "02/02/1995", "address": "77 Birch Lane, Apt 4B, Shelbyville, KY 40065", "phone": "(502) 555-0177",
		"position": "Leasing Consultant", "start": "January 5, 2026", "salary": "$48,000", "employer": "Bluegrass Homes and Land", "years": "4",
		"education": "Associate degree", "contact": "Carla Mendes", "relation": "former manager", "signed": "12/01/2025"},
	{"first": "Pierre", "last": "Gagnon", "born": "09/17/1988", "address": "12 Rue Champlain, Lewiston, ME 04240", "phone": "207 555 0110",
		"position": "Property Manager", "start": "immediately", "salary": "negotiable", "employer": "Coastal Properties", "years": "11",
		"education": "Bachelor of Science", "contact": "Margaret Olsen", "relation": "colleague", "signed": "06/15/2026"},
}

// extraPage is the page added to a copy of the purchase agreement.
var extraPage = formPage{paragraphs: []string{
	"ADDENDUM A: LEAD-BASED PAINT DISCLOSURE",
	"Every purchaser of any interest in residential real property on which a dwelling was built before 1978 is notified that such property may present exposure to lead from lead-based paint. The seller of any interest in residential real property is required to provide the buyer with any information on lead-based paint hazards from risk assessments or inspections in the seller's possession.",
	"Buyer's initials: ______    Seller's initials: ______",
}}

// fill replaces each {placeholder} of s by its value; a blank form (no
// filling) has a line of underscores in each.
func fill(s string, f filling) string {
	for k, v := range f {
		s = strings.ReplaceAll(s, "{"+k+"}", v)
	}
	return placeholder.ReplaceAllString(s, "__________")
}

var placeholder = regexp.MustCompile(`\{[a-z0-9]+\}`)

// wrap breaks s into lines of at most width characters.
func wrap(s string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		if line != "" && len(line)+1+len(w) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	return append(lines, line)
}

// letterhead is drawn on every page of both forms.
const letterhead = "HARBOR AND PRAIRIE REALTY GROUP  |  200 Main Street, Suite 5  |  (555) 010-2000"

// writeForm writes pages filled with f as a US Letter PDF: the letterhead,
// the wrapped paragraphs, each label with its value drawn apart, the
// signature lines and a footer.
func writeForm(pages []formPage, f filling) []byte {
	out := make([]pdftest.TextPage, len(pages))
	for i, p := range pages {
		tp := pdftest.TextPage{Width: 612, Height: 792}
		add := func(x, y, size float64, s string) {
			tp.Texts = append(tp.Texts, pdftest.PlacedText{X: x, Y: y, Size: size, Text: s})
		}
		add(72, 750, 8, letterhead)
		y := 720.0
		for _, para := range p.paragraphs {
			for _, l := range wrap(fill(para, f), 96) {
				add(72, y, 10, l)
				y -= 13
			}
			y -= 8
		}
		for _, fl := range p.fields {
			add(72, y, 10, fl[0])
			add(180, y, 10, fill(fl[1], f))
			y -= 18
		}
		for _, s := range p.signatures {
			y -= 10
			add(72, y, 10, fill(s, f))
			y -= 18
		}
		add(72, 40, 8, fmt.Sprintf("Page %d of %d    Form HPR-%d (rev. 2024)    Initials: ______", i+1, len(pages), 100+len(pages[0].paragraphs)))
		out[i] = tp
	}
	return pdftest.TextPDF(out)
}

// matchDoc is one document of the corpus; form names what it is a copy of
// (the form and its page count): two documents match when it is the same.
type matchDoc struct {
	name, form string
	pdf        []byte
}

func matchingCorpus() []matchDoc {
	var docs []matchDoc
	for i, f := range purchaseFillings {
		docs = append(docs, matchDoc{fmt.Sprintf("purchase-%d", i+1), "purchase", writeForm(purchaseForm, f)})
	}
	for i, f := range leaseFillings {
		docs = append(docs, matchDoc{fmt.Sprintf("lease-%d", i+1), "lease", writeForm(leaseForm, f)})
	}
	docs = append(docs, matchDoc{"purchase-blank", "purchase", writeForm(purchaseForm, nil)})
	for i, f := range intakeFillings {
		docs = append(docs, matchDoc{fmt.Sprintf("intake-%d", i+1), "intake", writeForm(intakeForm, f)})
	}
	docs = append(docs, matchDoc{"intake-blank", "intake", writeForm(intakeForm, nil)})
	for i, f := range applicationFillings {
		docs = append(docs, matchDoc{fmt.Sprintf("application-%d", i+1), "application", writeForm(applicationForm, f)})
	}
	withAddendum := append(append([]formPage(nil), purchaseForm...), extraPage)
	docs = append(docs, matchDoc{"purchase-1+addendum", "purchase+addendum", writeForm(withAddendum, purchaseFillings[0])})
	return docs
}

// Every document of the corpus is uploaded and indexed; each is then the
// query against the others, as a new upload against the organization's
// templates. Copies of one form match each other with at least 0.9; a
// different form of the same size, or the form with a page added, is never
// listed. Precision and recall over all queries are printed.
func TestTemplateMatchingCorpus(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		docs := matchingCorpus()
		fps := make([]templatematch.Fingerprint, len(docs))
		var index templatematch.Index[int]
		for i, d := range docs {
			staged, err := env.Store.StageUpload(ctx, bytes.NewReader(d.pdf), int64(len(d.pdf))+1, d.name+".pdf")
			if err != nil {
				t.Fatalf("%s: stage upload: %v", d.name, err)
			}
			fps[i] = staged.Fingerprint()
			_ = staged.Close()
			if !fps[i].HasText() {
				t.Fatalf("%s: the upload's fingerprint has no text", d.name)
			}
			index.Add(i, fps[i])
		}

		var header strings.Builder
		fmt.Fprintf(&header, "%-22s", "score")
		for _, d := range docs {
			fmt.Fprintf(&header, " %13s", strings.TrimPrefix(d.name, "purchase-1+"))
		}
		t.Log(header.String())
		for i, a := range docs {
			var row strings.Builder
			fmt.Fprintf(&row, "%-22s", a.name)
			for j := range docs {
				fmt.Fprintf(&row, " %13.3f", templatematch.Score(fps[i], fps[j]))
			}
			t.Log(row.String())
		}

		truePos, listed, relevant := 0, 0, 0
		for i, a := range docs {
			matches := index.Query(fps[i], 6, minListedScore)
			got := map[int]float64{}
			for _, m := range matches {
				if m.Key != i {
					got[m.Key] = m.Score
					listed++
				}
			}
			for j, b := range docs {
				if j == i {
					continue
				}
				score, isListed := got[j]
				if a.form == b.form {
					relevant++
					if !isListed {
						t.Errorf("%s: %s (the same form filled in otherwise) not listed; its score is %.3f", a.name, b.name, templatematch.Score(fps[i], fps[j]))
						continue
					}
					truePos++
					if score < 0.9 {
						t.Errorf("%s: %s (the same form filled in otherwise) scores %.3f, want ≥ 0.9", a.name, b.name, score)
					}
				} else if isListed {
					t.Errorf("%s: %s (another form) listed with %.3f", a.name, b.name, score)
				}
				if a.form != b.form && templatematch.Score(fps[i], fps[j]) >= minListedScore {
					t.Errorf("%s: %s (another form) scores %.3f, want < %.1f", a.name, b.name, templatematch.Score(fps[i], fps[j]), minListedScore)
				}
			}
		}
		precision, recall := 1.0, 1.0
		if listed > 0 {
			precision = float64(truePos) / float64(listed)
		}
		if relevant > 0 {
			recall = float64(truePos) / float64(relevant)
		}
		t.Logf("MATCHING corpus: %d documents, %d queries: precision %.2f (%d of %d listed), recall %.2f (%d of %d copies of the same form)",
			len(docs), len(docs), precision, truePos, listed, recall, truePos, relevant)
	})
}
