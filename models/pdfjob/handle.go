package pdfjob

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/pdf/anchor"
	"github.com/markuproom/markuproom/models/pdf/detect"
	"github.com/markuproom/markuproom/models/pdfworker"
	"github.com/markuproom/markuproom/models/templatematch"
)

// ServeIfWorker serves jobs and exits when this process was started as a
// PDF worker; otherwise it returns at once. The server's main calls it
// first thing, and so does the TestMain of every test package whose tests
// run PDF jobs (a Pool starts the test binary itself as the worker).
func ServeIfWorker() {
	if pdfworker.IsWorker() {
		pdfworker.Main(Handle)
	}
}

// Handle runs one job inside a worker.
func Handle(ctx context.Context, req pdfworker.Request) (any, error) {
	res, err := handle(ctx, req)
	if err != nil {
		return nil, encodeError(err)
	}
	return res, nil
}

func handle(ctx context.Context, req pdfworker.Request) (any, error) {
	switch req.Kind {
	case KindStage:
		var a StageArgs
		if err := decodeArgs(req, &a); err != nil {
			return nil, err
		}
		return stage(ctx, a, req.Input, req.Output)
	case KindEdit:
		var a EditArgs
		if err := decodeArgs(req, &a); err != nil {
			return nil, err
		}
		return edit(ctx, a, req.Input, req.Output)
	case KindDetect:
		var l pdf.Limits
		if err := decodeArgs(req, &l); err != nil {
			return nil, err
		}
		return withInput(req.Input, func(f *os.File) (Detected, error) {
			info, found, _, err := inspectUpload(ctx, l, f, false)
			return Detected{Info: info, Detection: found}, err
		})
	case KindFingerprint:
		var l pdf.Limits
		if err := decodeArgs(req, &l); err != nil {
			return nil, err
		}
		return withInput(req.Input, func(f *os.File) (Fingerprinted, error) {
			return fingerprint(ctx, l, f)
		})
	case KindWords:
		var l pdf.Limits
		if err := decodeArgs(req, &l); err != nil {
			return nil, err
		}
		return withInput(req.Input, func(f *os.File) (Words, error) {
			return words(ctx, l, f)
		})
	case KindPageWords:
		var l pdf.Limits
		if err := decodeArgs(req, &l); err != nil {
			return nil, err
		}
		return withInput(req.Input, func(f *os.File) (PageWords, error) {
			return ReadPageWords(ctx, l, f)
		})
	case KindAnchors:
		var a AnchorArgs
		if err := decodeArgs(req, &a); err != nil {
			return nil, err
		}
		return withInput(req.Input, func(f *os.File) (anchor.Result, error) {
			lay, err := a.Limits.ReadLayoutFrom(ctx, f)
			if err != nil {
				return anchor.Result{}, err
			}
			return anchor.Place(ctx, lay, a.Request)
		})
	}
	return nil, fmt.Errorf("pdf job: unknown kind %q", req.Kind)
}

func decodeArgs(req pdfworker.Request, v any) error {
	if err := json.Unmarshal(req.Args, v); err != nil {
		return &pdfworker.JobError{Code: pdfworker.CodeBadRequest, Message: err.Error()}
	}
	return nil
}

// withInput runs fn on the job's input file.
func withInput[T any](path string, fn func(*os.File) (T, error)) (T, error) {
	f, err := os.Open(path)
	if err != nil {
		var zero T
		return zero, err
	}
	defer f.Close()
	return fn(f)
}

// stage checks an upload as pdf.Limits.Inspect does and, on the same read,
// finds its detection and fingerprint. Only a file the check refuses for its
// structure or its encryption pays for the repair pass and decryption: when
// they give a file, it is written to output (at most
// a.Limits.MaxOutputBytes, which Mend keeps to) and read in turn.
func stage(ctx context.Context, a StageArgs, input, output string) (Staged, error) {
	return withInput(input, func(f *os.File) (Staged, error) {
		info, found, fp, err := inspectUpload(ctx, a.Limits, f, true)
		if !errors.Is(err, pdf.ErrMalformed) && !errors.Is(err, pdf.ErrEncrypted) {
			return staged(info, found, fp), err
		}
		m, merr := a.Limits.Mend(ctx, f)
		if merr != nil {
			return Staged{}, merr
		}
		if m.Content == nil {
			return Staged{}, err
		}
		if err := writeOutput(output, m.Content, a.Limits); err != nil {
			return Staged{}, err
		}
		info, found, fp, err = inspectUpload(ctx, a.Limits, bytes.NewReader(m.Content), true)
		s := staged(info, found, fp)
		s.Mended, s.Decrypted, s.Repairs = true, m.Decrypted, m.Repairs
		return s, err
	})
}

// edit deletes or moves a page, writes the new file to output and reads it
// as stage does (without the repair pass: pdfcpu writes whole files).
func edit(ctx context.Context, a EditArgs, input, output string) (Staged, error) {
	content, err := readInput(input, a.Limits)
	if err != nil {
		return Staged{}, err
	}
	var out []byte
	switch a.Op {
	case EditDelete:
		out, _, err = a.Limits.DeletePage(ctx, content, a.Page)
	case EditMove:
		out, _, err = a.Limits.MovePage(ctx, content, a.From, a.To)
	default:
		err = fmt.Errorf("pdf job: unknown page edit %q", a.Op)
	}
	if err != nil {
		return Staged{}, err
	}
	if err := writeOutput(output, out, a.Limits); err != nil {
		return Staged{}, err
	}
	info, found, fp, err := inspectUpload(ctx, a.Limits, bytes.NewReader(out), true)
	return staged(info, found, fp), err
}

func staged(info pdf.Info, found detect.Detection, fp templatematch.Fingerprint) Staged {
	b, _ := fp.MarshalBinary()
	return Staged{Info: info, Detection: found, Fingerprint: b}
}

// readInput reads the job's input whole, refusing one past l.MaxOutputBytes
// (an input of a page edit is a stored file, never larger).
func readInput(path string, l pdf.Limits) ([]byte, error) {
	max := l.MaxOutputBytes
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, &pdf.OutputTooLargeError{Limit: max}
	}
	return b, nil
}

// writeOutput writes a file the job made, refusing one past
// l.MaxOutputBytes before writing any of it (the pdf package stops at it as
// it writes; this holds whatever wrote b).
func writeOutput(path string, b []byte, l pdf.Limits) error {
	if int64(len(b)) > l.MaxOutputBytes {
		return &pdf.OutputTooLargeError{Limit: l.MaxOutputBytes}
	}
	return os.WriteFile(path, b, 0o600)
}
