package pdfjob

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/pdfworker"
)

// Codes of the failures a job reports about its input.
const (
	codeNotPDF           = "not_pdf"
	codeEncrypted        = "encrypted"
	codePasswordRequired = "password_required"
	codeMalformed        = "malformed"
	codeTooManyPages     = "too_many_pages"
	codeExpands          = "expands_too_much"
	codeOutputTooLarge   = "output_too_large"
	codeTooManyObjects   = "too_many_objects"
	codePageOutOfRange   = "page_out_of_range"
	codeLastPage         = "last_page"
	codeTooComplex       = "too_complex"
	codeTimeout          = "timeout"
	codeCanceled         = "canceled"
)

// sentinels pairs each plain code with the pdf package's error.
var sentinels = []struct {
	code string
	err  error
}{
	{codeNotPDF, pdf.ErrNotPDF},
	{codePasswordRequired, pdf.ErrPasswordRequired},
	{codeEncrypted, pdf.ErrEncrypted},
	{codeTooManyPages, pdf.ErrTooManyPages},
	{codePageOutOfRange, pdf.ErrPageOutOfRange},
	{codeLastPage, pdf.ErrLastPage},
	{codeTooComplex, pdf.ErrTooComplex},
	{codeMalformed, pdf.ErrMalformed},
}

// encodeError turns a job's error into a *pdfworker.JobError with its
// code and arguments; an error that says nothing about the input (an I/O
// failure of the worker) passes unchanged.
func encodeError(err error) error {
	var ee *pdf.ExpandsError
	var oe *pdf.OutputTooLargeError
	var obe *pdf.ObjectsError
	switch {
	case errors.As(err, &obe):
		args, _ := json.Marshal(obe)
		return &pdfworker.JobError{Code: codeTooManyObjects, Message: err.Error(), Args: args}
	case errors.As(err, &ee):
		args, _ := json.Marshal(ee)
		return &pdfworker.JobError{Code: codeExpands, Message: err.Error(), Args: args}
	case errors.As(err, &oe):
		args, _ := json.Marshal(oe)
		return &pdfworker.JobError{Code: codeOutputTooLarge, Message: err.Error(), Args: args}
	case errors.Is(err, context.DeadlineExceeded):
		return &pdfworker.JobError{Code: codeTimeout, Message: err.Error()}
	case errors.Is(err, context.Canceled):
		return &pdfworker.JobError{Code: codeCanceled, Message: err.Error()}
	}
	for _, s := range sentinels {
		if errors.Is(err, s.err) {
			return &pdfworker.JobError{Code: s.code, Message: err.Error()}
		}
	}
	return err
}

// jobError is a failure a worker reported, as the pdf package's error.
type jobError struct {
	msg string
	err error
}

func (e *jobError) Error() string { return e.msg }
func (e *jobError) Unwrap() error { return e.err }

// decodeError turns what a worker reported back into the error the job
// would have returned in process: the pdf package's sentinels and types, a
// *pdfworker.LimitError for a job that ran out of time, and a panic of the
// parser as a damaged file. Errors of the pool (*pdfworker.LimitError,
// *pdfworker.BusyError, the context's) pass unchanged.
func decodeError(err error, timeout pdfworker.Options) error {
	var je *pdfworker.JobError
	if !errors.As(err, &je) {
		return err
	}
	switch je.Code {
	case codeExpands:
		var ee pdf.ExpandsError
		if json.Unmarshal(je.Args, &ee) == nil {
			return &ee
		}
	case codeTooManyObjects:
		var obe pdf.ObjectsError
		if json.Unmarshal(je.Args, &obe) == nil {
			return &obe
		}
	case codeOutputTooLarge:
		var oe pdf.OutputTooLargeError
		if json.Unmarshal(je.Args, &oe) == nil {
			return &oe
		}
	case codeTimeout:
		return &pdfworker.LimitError{Reason: pdfworker.ReasonTime, Duration: timeout.Timeout, Detail: je.Message}
	case codeCanceled:
		return &jobError{msg: je.Message, err: context.Canceled}
	case pdfworker.CodePanic:
		return &jobError{msg: "internal parser failure: " + je.Message, err: pdf.ErrMalformed}
	}
	for _, s := range sentinels {
		if je.Code == s.code {
			return &jobError{msg: je.Message, err: s.err}
		}
	}
	return err
}
