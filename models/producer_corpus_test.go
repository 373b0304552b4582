package models_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"text/tabwriter"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

// producerCorpusDir holds the same contract written by real producers and
// passed through the transformations real files go through (docs/testing.md).
const producerCorpusDir = "pdf/testdata/producers"

// producerManifest is producerCorpusDir/manifest.json, written by its make.sh.
type producerManifest struct {
	Poppler string          `json:"poppler"`
	Files   []producerEntry `json:"files"`
}

type producerEntry struct {
	File           string `json:"file"`
	Producer       string `json:"producer"`
	Transformation string `json:"transformation"`
	Bytes          int    `json:"bytes"`
	SHA256         string `json:"sha256"`
	Pdfinfo        struct {
		Opens bool `json:"opens"`
		Pages int  `json:"pages"`
	} `json:"pdfinfo"`
	// Refusal is the code a negative case is refused with; empty for the
	// files poppler opens.
	Refusal string `json:"refusal"`
}

// Every file of the producer corpus that poppler opens is accepted by the
// upload with poppler's page count; every negative case is refused with its
// code. When pdfinfo is installed (CI installs it) it is run again on every
// file, so the manifest cannot drift from poppler.
func TestProducerCorpus(t *testing.T) {
	t.Parallel()
	m := readProducerManifest(t)
	checkManifestAgainstPoppler(t, m)
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		var table strings.Builder
		tw := tabwriter.NewWriter(&table, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "file\tproducer\ttransformation\tpoppler\taccepted\tpages\trepairs")
		accepted, opened := 0, 0
		for _, e := range m.Files {
			content := readCorpusFile(t, e.File)
			staged, err := env.Store.StageUpload(context.Background(), bytes.NewReader(content), 32<<20, e.File)
			row := uploadRow{accepted: "no", pages: "-", repairs: "-"}
			if err == nil {
				accepted++
				row.accepted, row.pages, row.repairs = "yes", strconv.Itoa(staged.Pages()), stagedRepairs(staged)
			} else {
				row.accepted = "no: " + refusalCode(err)
			}
			poppler := "refuses"
			if e.Pdfinfo.Opens {
				opened++
				poppler = fmt.Sprintf("%d pages", e.Pdfinfo.Pages)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", e.File, e.Producer, e.Transformation, poppler, row.accepted, row.pages, row.repairs)
			switch {
			case e.Pdfinfo.Opens && err != nil:
				t.Errorf("%s (%s; %s): poppler opens it (%d pages) but the upload refuses it with %s", e.File, e.Producer, e.Transformation, e.Pdfinfo.Pages, refusalCode(err))
			case e.Pdfinfo.Opens && staged.Pages() != e.Pdfinfo.Pages:
				t.Errorf("%s (%s; %s): %d pages, poppler counts %d", e.File, e.Producer, e.Transformation, staged.Pages(), e.Pdfinfo.Pages)
			case !e.Pdfinfo.Opens && err == nil:
				t.Errorf("%s (%s): accepted, want refused with %s", e.File, e.Transformation, e.Refusal)
			case !e.Pdfinfo.Opens && refusalCode(err) != e.Refusal:
				t.Errorf("%s (%s): refused with %s, want %s", e.File, e.Transformation, refusalCode(err), e.Refusal)
			}
			if staged != nil {
				if err := staged.Close(); err != nil {
					t.Errorf("%s: close: %v", e.File, err)
				}
			}
		}
		_ = tw.Flush()
		t.Logf("producer corpus: %d files, poppler opens %d, accepted %d\n%s", len(m.Files), opened, accepted, table.String())
	})
}

type uploadRow struct{ accepted, pages, repairs string }

func readProducerManifest(t *testing.T) producerManifest {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(producerCorpusDir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m producerManifest
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("manifest.json: %v", err)
	}
	if len(m.Files) == 0 {
		t.Fatal("manifest.json lists no files")
	}
	for _, e := range m.Files {
		if !e.Pdfinfo.Opens && e.Refusal == "" {
			t.Errorf("%s: poppler does not open it, and the manifest gives no refusal code", e.File)
		}
		if e.Pdfinfo.Opens && e.Refusal != "" {
			t.Errorf("%s: poppler opens it, yet the manifest expects a refusal (%s)", e.File, e.Refusal)
		}
	}
	return m
}

// readCorpusFile reads one file of the corpus.
func readCorpusFile(t *testing.T, name string) []byte {
	t.Helper()
	content, err := os.ReadFile(filepath.Join(producerCorpusDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return content
}

// checkManifestAgainstPoppler runs pdfinfo on every file when it is
// installed (it must be in CI) and fails where it disagrees with the
// manifest; it also checks each file's size and SHA-256.
func checkManifestAgainstPoppler(t *testing.T, m producerManifest) {
	t.Helper()
	for _, e := range m.Files {
		content := readCorpusFile(t, e.File)
		sum := sha256.Sum256(content)
		if len(content) != e.Bytes || hex.EncodeToString(sum[:]) != e.SHA256 {
			t.Errorf("%s: not the file manifest.json describes (size or SHA-256 differs); run make.sh again", e.File)
		}
	}
	bin, err := exec.LookPath("pdfinfo")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("pdfinfo (poppler-utils) is not installed; .ci/run installs it")
		}
		t.Logf("pdfinfo is not installed: the manifest's poppler verdicts (%s) are taken as they are", m.Poppler)
		return
	}
	pages := regexp.MustCompile(`(?m)^Pages:\s+(\d+)\s*$`)
	for _, e := range m.Files {
		out, err := exec.Command(bin, filepath.Join(producerCorpusDir, e.File)).Output()
		opens, n := false, 0
		if match := pages.FindSubmatch(out); err == nil && match != nil {
			opens = true
			n, _ = strconv.Atoi(string(match[1]))
		}
		if opens != e.Pdfinfo.Opens || n != e.Pdfinfo.Pages {
			t.Errorf("%s: pdfinfo here says opens=%v pages=%d, manifest.json (%s) says opens=%v pages=%d",
				e.File, opens, n, m.Poppler, e.Pdfinfo.Opens, e.Pdfinfo.Pages)
		}
	}
}

// refusalCode is the first field error's code of a validation error, or a
// description of any other error.
func refusalCode(err error) string {
	var ve *models.ValidationError
	if !errors.As(err, &ve) {
		return fmt.Sprintf("not a ValidationError (%T)", err)
	}
	if len(ve.Errors) == 0 {
		return "no field error"
	}
	return ve.Errors[0].Code
}

// stagedRepairs lists what the upload repaired and whether it decrypted the
// file, as far as StagedUpload tells (methods Repairs and Decrypted, looked
// up by name so that this test builds with and without them); "-" for none.
func stagedRepairs(u *models.StagedUpload) string {
	var notes []string
	if out, ok := callGetter(u, "Decrypted"); ok && out.Kind() == reflect.Bool && out.Bool() {
		notes = append(notes, "decrypted")
	}
	if out, ok := callGetter(u, "Repairs"); ok && !((out.Kind() == reflect.Slice || out.Kind() == reflect.Map) && out.Len() == 0) {
		notes = append(notes, fmt.Sprint(out.Interface()))
	}
	if len(notes) == 0 {
		return "-"
	}
	return strings.Join(notes, " ")
}

// callGetter calls u's method name when it exists and takes no argument and
// returns one value.
func callGetter(u *models.StagedUpload, name string) (reflect.Value, bool) {
	m := reflect.ValueOf(u).MethodByName(name)
	if !m.IsValid() || m.Type().NumIn() != 0 || m.Type().NumOut() != 1 {
		return reflect.Value{}, false
	}
	return m.Call(nil)[0], true
}
