package templatematch_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models/templatematch"
)

// letter is a US Letter page of text.
func letter(text string) templatematch.Page {
	return templatematch.Page{Width: 612, Height: 792, Text: text}
}

// prose returns n pseudo-random lower-case words drawn from a vocabulary of
// 2,000 (seeded: the same seed gives the same text).
func prose(seed uint64, n int) string {
	r := rand.New(rand.NewPCG(seed, 1))
	words := make([]string, n)
	for i := range words {
		words[i] = fmt.Sprintf("w%c%c%c", 'a'+r.IntN(26), 'a'+r.IntN(26), 'a'+r.IntN(3))
	}
	return strings.Join(words, " ")
}

func TestScoreOfPagesAndSizes(t *testing.T) {
	a := prose(1, 300)
	b := prose(2, 300)
	one := templatematch.FingerprintOf([]templatematch.Page{letter(a), letter(b)})
	tests := []struct {
		name  string
		pages []templatematch.Page
		want  float64 // -1: below 0.3
	}{
		{"the same pages", []templatematch.Page{letter(a), letter(b)}, 1},
		{"sides within 1 pt", []templatematch.Page{{Width: 612.9, Height: 791.1, Text: a}, letter(b)}, 1},
		{"a side 1.2 pt off", []templatematch.Page{{Width: 613.2, Height: 792, Text: a}, letter(b)}, 0},
		{"turned (A4 landscape sides swapped)", []templatematch.Page{{Width: 792, Height: 612, Text: a}, letter(b)}, 0},
		{"a page fewer", []templatematch.Page{letter(a)}, 0},
		{"a page more", []templatematch.Page{letter(a), letter(b), letter(b)}, 0},
		{"other text", []templatematch.Page{letter(prose(3, 300)), letter(prose(4, 300))}, -1},
		{"no text", []templatematch.Page{letter(""), letter("")}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := templatematch.Score(one, templatematch.FingerprintOf(tt.pages))
			if tt.want < 0 {
				if got < 0 || got >= 0.3 {
					t.Fatalf("score %.3f, want below 0.3", got)
				}
				return
			}
			if got != tt.want {
				t.Fatalf("score %.3f, want %v", got, tt.want)
			}
		})
	}
	if s := templatematch.Score(templatematch.Fingerprint{}, templatematch.Fingerprint{}); s != 0 {
		t.Errorf("two empty fingerprints score %v, want 0", s)
	}
}

// Pages without text on either side do not count; a page with text on one
// side only counts as 0, weighted by its text.
func TestScoreWeighsPagesByTheirText(t *testing.T) {
	text := prose(5, 400)
	blank := letter("")
	a := templatematch.FingerprintOf([]templatematch.Page{letter(text), blank})
	if s := templatematch.Score(a, a); s != 1 {
		t.Fatalf("a document against itself with a blank page: %v, want 1", s)
	}
	b := templatematch.FingerprintOf([]templatematch.Page{letter(text), letter(prose(6, 400))})
	if s := templatematch.Score(a, b); math.Abs(s-0.5) > 0.01 {
		t.Fatalf("a page of text against a blank one: %v, want 0.5 (half the text weight scores 0)", s)
	}
	if a.HasText() != true || templatematch.FingerprintOf([]templatematch.Page{blank}).HasText() {
		t.Fatal("HasText wrong")
	}
}

// Numbers and names within a sentence are the filled-in values: other ones,
// of other lengths, leave the shingles as they were; a changed common word
// does not.
func TestFilledInValuesKeepTheShingles(t *testing.T) {
	form := "This agreement is made on %s between %s (the buyer) and %s for the price of %s, due within %s days at the office of the agent. " + prose(7, 60)
	a := fmt.Sprintf(form, "March 3, 2026", "Jonathan A. Whitfield", "Margaret Olsen", "$412,500.00", "10")
	b := fmt.Sprintf(form, "November 21, 2025", "Li Wei", "Robert and Alice Thornbury-Hughes", "$289,000", "14")
	fa := templatematch.FingerprintOf([]templatematch.Page{letter(a)})
	if s := templatematch.Score(fa, templatematch.FingerprintOf([]templatematch.Page{letter(b)})); s < 0.97 {
		t.Errorf("the same sentence filled in otherwise scores %.3f, want ≥ 0.97", s)
	}
	c := strings.Replace(a, "the price of", "a rent of", 1)
	if s := templatematch.Score(fa, templatematch.FingerprintOf([]templatematch.Page{letter(c)})); s == 1 {
		t.Error("a change of the form's own words changes nothing")
	}
	// A word starting a sentence is the form's own (a heading, a clause).
	d := strings.Replace(a, "This agreement", "Another agreement", 1)
	if s := templatematch.Score(fa, templatematch.FingerprintOf([]templatematch.Page{letter(d)})); s == 1 {
		t.Error("a change of a sentence's first word changes nothing")
	}
}

// The MinHash estimate follows the true Dice coefficient of the shingle
// sets: pages sharing a known share of their words.
func TestScoreEstimatesDice(t *testing.T) {
	for _, shared := range []float64{0.2, 0.5, 0.8, 0.95} {
		var sum float64
		const trials = 40
		var want float64
		for trial := range trials {
			words := strings.Fields(prose(uint64(100+trial), 1000))
			other := strings.Fields(prose(uint64(500+trial), 1000))
			// Replace whole blocks so the shingle sets share a known share.
			b := append([]string(nil), words...)
			keep := int(shared * float64(len(words)))
			copy(b[keep:], other[keep:])
			pa := letter(strings.Join(words, " "))
			pb := letter(strings.Join(b, " "))
			want = dice(words, b)
			sum += templatematch.Score(templatematch.FingerprintOf([]templatematch.Page{pa}), templatematch.FingerprintOf([]templatematch.Page{pb}))
		}
		if got := sum / trials; math.Abs(got-want) > 0.04 {
			t.Errorf("%.0f %% shared: mean score %.3f, true Dice %.3f", shared*100, got, want)
		}
	}
}

// dice is the exact Dice coefficient of the word-pair sets of a and b.
func dice(a, b []string) float64 {
	set := func(w []string) map[string]bool {
		m := map[string]bool{}
		for i := 0; i+templatematch.ShingleWords <= len(w); i++ {
			m[strings.Join(w[i:i+templatematch.ShingleWords], " ")] = true
		}
		return m
	}
	sa, sb := set(a), set(b)
	both := 0
	for k := range sa {
		if sb[k] {
			both++
		}
	}
	return 2 * float64(both) / float64(len(sa)+len(sb))
}

// Hostile input is bounded: pages past MaxPages are not counted, text past
// MaxPageTextBytes or MaxPageWords is not read, and the encoding of the
// largest fingerprint stays small.
func TestFingerprintBounds(t *testing.T) {
	var b templatematch.Builder
	huge := strings.Repeat("word ", 1<<20) // 5 MB on one page
	for range templatematch.MaxPages + 10 {
		b.Add(letter(huge))
	}
	fp := b.Fingerprint()
	if fp.Pages() != templatematch.MaxPages {
		t.Fatalf("pages %d, want %d", fp.Pages(), templatematch.MaxPages)
	}
	data, err := fp.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if len(data) > 40<<10 {
		t.Fatalf("the largest fingerprint takes %d bytes", len(data))
	}
	// Text past the caps is not read: a page that differs only there is the same.
	same := strings.Repeat("alpha beta ", templatematch.MaxPageWords)
	x := templatematch.FingerprintOf([]templatematch.Page{letter(same + "gamma delta")})
	y := templatematch.FingerprintOf([]templatematch.Page{letter(same + "epsilon zeta")})
	if s := templatematch.Score(x, y); s != 1 {
		t.Fatalf("text past MaxPageWords was read: %v", s)
	}
	// Odd sizes and text do not break it.
	odd := templatematch.FingerprintOf([]templatematch.Page{{Width: math.NaN(), Height: math.Inf(1), Text: "\xff\xfe caf\u00e9 \u0301 \U0001F600"}})
	if _, err := odd.MarshalBinary(); err != nil {
		t.Fatal(err)
	}
}

// A value drawn apart from its label (a line of its own after a line ending
// with ':') is left out, so a form of labels filled in otherwise, or blank,
// is the same; its labels are kept, so another form of labels is not.
func TestLabelsAreKeptTheirValuesLeftOut(t *testing.T) {
	labels := func(values ...string) templatematch.Fingerprint {
		rows := []string{"First Name:", "Last Name:", "Known Allergies:", "Reason for Visit:", "Emergency Contact:"}
		var sb strings.Builder
		sb.WriteString("PATIENT INTAKE\nPlease complete every section.\n")
		for i, r := range rows {
			sb.WriteString(r + "\n")
			if i < len(values) && values[i] != "" {
				sb.WriteString(values[i] + "\n")
			}
		}
		return templatematch.FingerprintOf([]templatematch.Page{letter(sb.String())})
	}
	filled := labels("Emily", "Whitfield", "penicillin and latex", "sprained left ankle", "Jonathan Whitfield (spouse)")
	for name, other := range map[string]templatematch.Fingerprint{
		"filled in otherwise": labels("Chinedu", "Okafor", "none", "annual checkup", "Fatima Okafor, wife"),
		"blank":               labels(),
	} {
		if s := templatematch.Score(filled, other); s != 1 {
			t.Errorf("%s: %.3f, want 1", name, s)
		}
	}
	otherLabels := templatematch.FingerprintOf([]templatematch.Page{letter(
		"PATIENT INTAKE\nPlease complete every section.\nFirst Name:\nLast Name:\nPosition Applied For:\nPrevious Employer:\nProfessional Reference:\n")})
	if s := templatematch.Score(filled, otherLabels); s >= 0.6 {
		t.Errorf("another form of labels: %.3f, want < 0.6", s)
	}
}
