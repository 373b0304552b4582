package xfdf

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// GeneratedPrefix starts the name of every annotation that Merge generates.
const GeneratedPrefix = "markuproom-tag-"

// ErrInvalidAnnotation is wrapped by the error Merge returns for an Annotation it cannot write.
var ErrInvalidAnnotation = errors.New("xfdf: invalid annotation")

// Rect is a rectangle in PDF user-space points: (X1, Y1) is its bottom-left and (X2, Y2) its top-right corner.
type Rect struct{ X1, Y1, X2, Y2 float64 }

// Annotation is one generated tag annotation, written by Merge as a <square> element.
type Annotation struct {
	Name       string          // unique name starting with GeneratedPrefix, usually built by GeneratedName
	Page       int             // 0-based page index (XFDF convention)
	Rect       Rect            // position on the page, X1 <= X2 and Y1 <= Y2
	Color      string          // "#RRGGBB", the colour of the tag's signer; empty for none
	Subject    string          // the tag type, a code of models/tagtype
	Title      string          // the signer id
	CustomData json.RawMessage // a JSON object carried in <trn-custom-data bytes="…">; empty for none
}

// GeneratedName returns the stable annotation name of the index-th tag of the document identified by documentKey.
func GeneratedName(documentKey string, index int) string {
	sum := sha256.Sum256([]byte(documentKey + "/" + strconv.Itoa(index)))
	return GeneratedPrefix + hex.EncodeToString(sum[:8])
}

// checkAnnotations reports the first annotation Merge cannot write. Names
// must carry GeneratedPrefix (or a later Merge could not replace them) and be
// unique (WebViewer identifies annotations by name).
func checkAnnotations(annots []Annotation) error {
	seen := make(map[string]bool, len(annots))
	for i, a := range annots {
		if err := a.check(); err != nil {
			return fmt.Errorf("%w %d (%q): %s", ErrInvalidAnnotation, i, clip(a.Name), err)
		}
		if seen[a.Name] {
			return fmt.Errorf("%w %d (%q): the name is used twice", ErrInvalidAnnotation, i, clip(a.Name))
		}
		seen[a.Name] = true
	}
	return nil
}

func (a Annotation) check() error {
	r := a.Rect
	switch {
	case !strings.HasPrefix(a.Name, GeneratedPrefix) || len(a.Name) == len(GeneratedPrefix):
		return fmt.Errorf("the name must start with %q and go on", GeneratedPrefix)
	case a.Page < 0:
		return fmt.Errorf("page %d is negative", a.Page)
	case !finite(r.X1) || !finite(r.Y1) || !finite(r.X2) || !finite(r.Y2):
		return errors.New("the rectangle has a coordinate that is not a finite number")
	case r.X1 > r.X2 || r.Y1 > r.Y2:
		return errors.New("the rectangle does not go from bottom-left to top-right")
	case a.Color != "" && !isHexColor(a.Color):
		return fmt.Errorf("colour %q is not #RRGGBB", clip(a.Color))
	case len(a.CustomData) > 0 && !isJSONObject(a.CustomData):
		return errors.New("the custom data is not a JSON object")
	}
	return nil
}

// element builds the <square> of a. prefix qualifies the element names (""
// or "p:"); indent is the whitespace before the <square> start tag, from
// which the layout of its child is derived.
func (a Annotation) element(prefix, indent string) *node {
	attrs := []attr{
		{"page", strconv.Itoa(a.Page)},
		{"rect", formatRect(a.Rect)},
		{"name", sanitize(a.Name)},
		{"flags", "print"},
	}
	for _, o := range []attr{{"color", a.Color}, {"subject", a.Subject}, {"title", a.Title}} {
		if o.value != "" {
			attrs = append(attrs, attr{o.name, sanitize(o.value)})
		}
	}
	sq := newElement(prefix+"square", attrs...)
	if len(a.CustomData) > 0 {
		cd := newElement(prefix+"trn-custom-data", attr{"bytes", sanitize(string(a.CustomData))})
		if strings.Contains(indent, "\n") {
			line := lastLine(indent)
			sq.children = []*node{textNode(line + indentUnit(line)), cd, textNode(line)}
		} else {
			sq.children = []*node{cd}
		}
	}
	return sq
}

// formatRect writes r as XFDF does: four comma-separated numbers.
func formatRect(r Rect) string {
	parts := make([]string, 4)
	for i, v := range []float64{r.X1, r.Y1, r.X2, r.Y2} {
		if v == 0 {
			v = 0 // turns -0 into 0
		}
		parts[i] = strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strings.Join(parts, ",")
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

func isHexColor(s string) bool {
	if len(s) != 7 || s[0] != '#' {
		return false
	}
	_, err := hex.DecodeString(s[1:])
	return err == nil
}

func isJSONObject(b []byte) bool {
	t := bytes.TrimLeft(b, " \t\r\n")
	return len(t) > 0 && t[0] == '{' && json.Valid(b)
}

// clip shortens s for an error message.
func clip(s string) string {
	const max = 40
	if len(s) <= max {
		return s
	}
	return strings.ToValidUTF8(s[:max], "") + "…"
}
