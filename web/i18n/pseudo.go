package i18n

import (
	"strings"
	"unicode/utf8"
)

// pseudoAccents swaps letters for accented look-alikes, so text that skipped
// the catalog stands out beside text that went through it.
var pseudoAccents = strings.NewReplacer(
	"a", "á", "e", "é", "i", "í", "o", "ó", "u", "ú", "A", "Á", "E", "É", "I", "Í", "O", "Ó", "U", "Ú",
	"c", "ç", "n", "ñ", "s", "š", "y", "ý", "C", "Ç", "N", "Ñ", "S", "Š", "Y", "Ý",
)

// PseudoOpen and PseudoClose wrap every pseudo-language message.
const (
	PseudoOpen  = "⟦"
	PseudoClose = "⟧"
)

// pseudoCatalog derives the pseudo-language from English.
func pseudoCatalog(en Catalog) Catalog {
	out := make(Catalog, len(en))
	for id, m := range en {
		p := Message{Text: pseudoText(m.Text)}
		if m.Plural != nil {
			p = Message{Plural: map[string]string{}}
			for form, s := range m.Plural {
				p.Plural[form] = pseudoText(s)
			}
		}
		out[id] = p
	}
	return out
}

// pseudoText accents s outside its {placeholders}, grows it by 40 % and
// wraps it in ⟦ ⟧.
func pseudoText(s string) string {
	if s == "" {
		return s
	}
	var b strings.Builder
	b.WriteString(PseudoOpen)
	for rest := s; rest != ""; {
		i := strings.IndexByte(rest, '{')
		if i < 0 {
			b.WriteString(pseudoAccents.Replace(rest))
			break
		}
		b.WriteString(pseudoAccents.Replace(rest[:i]))
		j := strings.IndexByte(rest[i:], '}')
		if j < 0 {
			b.WriteString(pseudoAccents.Replace(rest[i:]))
			break
		}
		b.WriteString(rest[i : i+j+1])
		rest = rest[i+j+1:]
	}
	// The padding comes in words of up to five, so it wraps as words do.
	for pad := (utf8.RuneCountInString(s)*2 + 4) / 5; pad > 0; pad -= 6 {
		b.WriteString(" " + strings.Repeat("~", min(pad-1, 5)))
	}
	b.WriteString(PseudoClose)
	return b.String()
}
