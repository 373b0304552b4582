package pdfjob

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/pdf/anchor"
	"github.com/markuproom/markuproom/models/pdfworker"
)

// Runner runs a job in a worker: a *pdfworker.Pool.
type Runner interface {
	Do(ctx context.Context, req pdfworker.Request) (json.RawMessage, error)
	Options() pdfworker.Options
}

// Stage runs KindStage on the file at input; a mended file is written to
// output (Staged.Mended).
func Stage(ctx context.Context, r Runner, a StageArgs, input, output string) (Staged, error) {
	return run[Staged](ctx, r, KindStage, a, input, output)
}

// Edit runs KindEdit on the file at input, writing the edited file to output.
func Edit(ctx context.Context, r Runner, a EditArgs, input, output string) (Staged, error) {
	return run[Staged](ctx, r, KindEdit, a, input, output)
}

// Detect runs KindDetect on the file at input.
func Detect(ctx context.Context, r Runner, l pdf.Limits, input string) (Detected, error) {
	return run[Detected](ctx, r, KindDetect, l, input, "")
}

// Fingerprint runs KindFingerprint on the file at input.
func Fingerprint(ctx context.Context, r Runner, l pdf.Limits, input string) (Fingerprinted, error) {
	return run[Fingerprinted](ctx, r, KindFingerprint, l, input, "")
}

// PrintedWords runs KindWords on the file at input.
func PrintedWords(ctx context.Context, r Runner, l pdf.Limits, input string) (Words, error) {
	return run[Words](ctx, r, KindWords, l, input, "")
}

// ReadPageWordsIn runs KindPageWords on the file at input.
func ReadPageWordsIn(ctx context.Context, r Runner, l pdf.Limits, input string) (PageWords, error) {
	return run[PageWords](ctx, r, KindPageWords, l, input, "")
}

// PlaceAnchors runs KindAnchors on the file at input.
func PlaceAnchors(ctx context.Context, r Runner, a AnchorArgs, input string) (anchor.Result, error) {
	return run[anchor.Result](ctx, r, KindAnchors, a, input, "")
}

// run runs one job and decodes its result or error.
func run[T any](ctx context.Context, r Runner, kind string, args any, input, output string) (T, error) {
	var out T
	b, err := json.Marshal(args)
	if err != nil {
		return out, err
	}
	raw, err := r.Do(ctx, pdfworker.Request{Kind: kind, Args: b, Input: input, Output: output})
	if err != nil {
		return out, decodeError(err, r.Options())
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return out, fmt.Errorf("pdf job %s: decode its result: %w", kind, err)
	}
	return out, nil
}
