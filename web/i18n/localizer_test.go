package i18n

import (
	"context"
	"testing"
	"time"
)

func TestTranslateFillsPluralsNumbersAndDates(t *testing.T) {
	es, _ := Lookup("es")
	l := New(es)
	day := time.Date(2026, 11, 26, 16, 5, 0, 0, time.UTC)
	if got := l.Date(day); got != "26 nov 2026" {
		t.Errorf("es date = %q", got)
	}
	if got := English().DateTime(day); got != "26 Nov 2026, 16:05" {
		t.Errorf("en datetime = %q", got)
	}
	de, _ := Lookup("de")
	if got := New(de).Number(1234567); got != "1.234.567" {
		t.Errorf("de number = %q", got)
	}
	ar, _ := Lookup("ar")
	if got := New(ar).Number(1234); got != "1,234" && got != "1٬234" {
		t.Errorf("ar number = %q (Western digits)", got)
	}
	for n, want := range map[int]string{0: "zero", 1: "one", 2: "two", 3: "few", 11: "many", 100: "other"} {
		if got := New(ar).PluralCategory(n); got != want {
			t.Errorf("ar plural of %d = %s, want %s", n, got, want)
		}
	}
	if got := English().T("no.such.id"); got != "no.such.id" {
		t.Errorf("unknown id = %q", got)
	}
	ctx := With(context.Background(), l)
	if got := T(ctx, "layout.signout"); got != "Cerrar sesión" {
		t.Errorf("es sign out = %q", got)
	}
	if got := T(context.Background(), "layout.signout"); got != "Sign out" {
		t.Errorf("fallback = %q", got)
	}
}

func TestMatchAcceptLanguage(t *testing.T) {
	for header, want := range map[string]string{
		"es-MX,es;q=0.9,en;q=0.5": "es",
		"fr-CA":                   "fr",
		"de-AT, en;q=0.1":         "de",
		"ar-EG":                   "ar",
		"ja, ar;q=0.3":            "ar",
		"en-GB":                   "en",
	} {
		l, ok := Match(header)
		if !ok || l.Tag != want {
			t.Errorf("Match(%q) = %v %v, want %s", header, l.Tag, ok, want)
		}
	}
	if _, ok := Match("ja, zh"); ok {
		t.Error("Match(ja, zh) found a language")
	}
	if _, ok := Match(""); ok {
		t.Error("Match(\"\") found a language")
	}
}

// Each language's Localizer is built once and shared: asking again (as
// every request does) gives the same one, and many goroutines may use it at
// once, each getting its own words, numbers and plurals.
func TestLocalizersAreBuiltOnceAndShared(t *testing.T) {
	for _, lang := range append(append([]Language{}, Languages...), Pseudo) {
		first, again := New(lang), New(lang)
		if first != again {
			t.Errorf("%s: a new Localizer per call", lang.Tag)
		}
	}
	if English() != New(Fallback()) {
		t.Error("English() is not the shared English Localizer")
	}
	de, _ := Lookup("de")
	done := make(chan string, 64)
	for i := range 64 {
		go func() {
			l := New(de)
			if i%2 == 0 {
				l = English()
			}
			done <- l.Number(1000+i) + " " + l.T("room.count.pages", "count", i)
		}()
	}
	seen := map[string]bool{}
	for range 64 {
		seen[<-done] = true
	}
	for i := range 64 {
		var want string
		if i%2 == 0 {
			want = English().Number(1000+i) + " " + English().T("room.count.pages", "count", i)
		} else {
			want = New(de).Number(1000+i) + " " + New(de).T("room.count.pages", "count", i)
		}
		if !seen[want] {
			t.Errorf("goroutine %d's words %q are missing", i, want)
		}
	}
}

// For speaks the tag's language, whatever its case, and English for a tag
// no catalog has.
func TestForFallsBackToEnglish(t *testing.T) {
	t.Parallel()
	for tag, want := range map[string]string{"es": "es", "DE": "de", "xx": "en", "": "en"} {
		if got := For(tag).Language().Tag; got != want {
			t.Errorf("For(%q) speaks %q, want %q", tag, got, want)
		}
	}
}
