// Command revisioncorpus writes the revision corpus (models/pdf/pdftest,
// RevisionCorpus: a contract and its revisions, each knowing where every
// field went) into a folder, for the browser tests that revise a room's
// document: base.pdf, one <kind>.pdf per revision, and fields.json, each
// version's fields as {"<kind>": {"<field>": {"page", "x", "y", "width",
// "height"}}} in PDF user-space points ("base" for the contract).
//
//	go run ./cmd/revisioncorpus -o /tmp/corpus
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// field is where a field of one version is.
type field struct {
	Page   int     `json:"page"`
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

func main() {
	out := flag.String("o", "", "the folder to write into (created when missing)")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "usage: revisioncorpus -o <folder>")
		os.Exit(2)
	}
	if err := write(*out); err != nil {
		fmt.Fprintln(os.Stderr, "revisioncorpus:", err)
		os.Exit(1)
	}
}

// write writes the corpus into dir.
func write(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	base, revisions := pdftest.RevisionCorpus()
	fields := map[string]map[string]field{}
	for _, d := range append([]pdftest.RevisionDoc{{Kind: "base", PDF: base.PDF, Fields: base.Fields}}, revisions...) {
		if err := os.WriteFile(filepath.Join(dir, d.Kind+".pdf"), d.PDF, 0o644); err != nil {
			return err
		}
		fields[d.Kind] = map[string]field{}
		for name, f := range d.Fields {
			fields[d.Kind][name] = field{Page: f.Page, X: f.Box.LLX, Y: f.Box.LLY, Width: f.Box.URX - f.Box.LLX, Height: f.Box.URY - f.Box.LLY}
		}
	}
	b, err := json.MarshalIndent(fields, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "fields.json"), b, 0o644)
}
