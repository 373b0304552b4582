package content

// Character encodings of simple fonts and the standard 14 fonts' names, as
// text extraction needs them.

import (
	"strconv"
	"strings"
)

// cp1252 maps the WinAnsiEncoding codes 0x80..0x9F to Unicode (0: unused).
var cp1252 = [32]rune{
	0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
	0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
}

// winAnsi returns a fresh WinAnsiEncoding table.
func winAnsi() *[256]rune {
	e := latin1()
	for i, r := range cp1252 {
		e[0x80+i] = r
	}
	return e
}

// latin1 returns a table mapping codes 32..126 and 160..255 to themselves.
func latin1() *[256]rune {
	var e [256]rune
	for c := 0x20; c < 0x7f; c++ {
		e[c] = rune(c)
	}
	for c := 0xa0; c < 0x100; c++ {
		e[c] = rune(c)
	}
	return &e
}

// winAnsiCode returns the WinAnsiEncoding code of r.
func winAnsiCode(r rune) (int, bool) {
	switch {
	case r >= 0x20 && r < 0x7f, r >= 0xa0 && r < 0x100:
		return int(r), true
	}
	for i, c := range cp1252 {
		if c == r && c != 0 {
			return 0x80 + i, true
		}
	}
	return 0, false
}

// glyphNames maps the glyph names of the ASCII range (and a few common
// others) to Unicode; single letters and uniXXXX names are read directly.
var glyphNames = map[string]rune{
	"space": ' ', "exclam": '!', "quotedbl": '"', "numbersign": '#', "dollar": '$', "percent": '%',
	"ampersand": '&', "quotesingle": '\'', "quoteright": '\u2019', "parenleft": '(', "parenright": ')',
	"asterisk": '*', "plus": '+', "comma": ',', "hyphen": '-', "period": '.', "slash": '/',
	"zero": '0', "one": '1', "two": '2', "three": '3', "four": '4', "five": '5', "six": '6', "seven": '7',
	"eight": '8', "nine": '9', "colon": ':', "semicolon": ';', "less": '<', "equal": '=', "greater": '>',
	"question": '?', "at": '@', "bracketleft": '[', "backslash": '\\', "bracketright": ']',
	"asciicircum": '^', "underscore": '_', "grave": '`', "quoteleft": '\u2018', "braceleft": '{', "bar": '|',
	"braceright": '}', "asciitilde": '~', "endash": '\u2013', "emdash": '\u2014', "bullet": '\u2022',
	"quotedblleft": '\u201C', "quotedblright": '\u201D', "section": '§', "copyright": '©',
	"registered": '®', "degree": '°', "paragraph": '¶', "ellipsis": '\u2026', "nbspace": '\u00A0',
}

// glyphRune returns the Unicode character of a glyph name.
func glyphRune(n string) (rune, bool) {
	if r, ok := glyphNames[n]; ok {
		return r, true
	}
	if len(n) == 1 && (n[0] >= 'a' && n[0] <= 'z' || n[0] >= 'A' && n[0] <= 'Z') {
		return rune(n[0]), true
	}
	for _, p := range []string{"uni", "u"} {
		if rest, ok := strings.CutPrefix(n, p); ok && len(rest) >= 4 && len(rest) <= 6 {
			if v, err := strconv.ParseUint(rest, 16, 32); err == nil && v > 0 && v < 0x110000 {
				return rune(v), true
			}
		}
	}
	return 0, false
}

// coreFontName maps a font's base name to one of the standard 14 fonts when
// it is one of them or a common alias (Arial for Helvetica, and so on).
func coreFontName(n string) (string, bool) {
	base, style, _ := strings.Cut(n, ",")
	if style == "" {
		base, style, _ = strings.Cut(n, "-")
	}
	bold := strings.Contains(style, "Bold")
	italic := strings.Contains(style, "Italic") || strings.Contains(style, "Oblique")
	pick := func(regular, b, i, bi string) string {
		switch {
		case bold && italic:
			return bi
		case bold:
			return b
		case italic:
			return i
		}
		return regular
	}
	switch base {
	case "Helvetica", "Arial", "ArialMT":
		return pick("Helvetica", "Helvetica-Bold", "Helvetica-Oblique", "Helvetica-BoldOblique"), true
	case "Times", "TimesNewRoman", "TimesNewRomanPS", "TimesNewRomanPSMT":
		return pick("Times-Roman", "Times-Bold", "Times-Italic", "Times-BoldItalic"), true
	case "Courier", "CourierNew", "CourierNewPSMT":
		return pick("Courier", "Courier-Bold", "Courier-Oblique", "Courier-BoldOblique"), true
	case "Symbol":
		return "Symbol", true
	case "ZapfDingbats":
		return "ZapfDingbats", true
	}
	return "", false
}

// coreDescent is the descender of a standard font family, in em.
func coreDescent(core string) float64 {
	switch {
	case strings.HasPrefix(core, "Times"):
		return -0.217
	case strings.HasPrefix(core, "Courier"):
		return -0.157
	case core == "Symbol", core == "ZapfDingbats":
		return -0.2
	}
	return -0.207
}
