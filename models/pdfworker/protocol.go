package pdfworker

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"
)

// Request is one job as the worker receives it.
type Request struct {
	// Kind names the job; the worker's Handler switches on it.
	Kind string `json:"kind"`
	// Args are the job's arguments, as its Kind defines them.
	Args json.RawMessage `json:"args,omitempty"`
	// Input is the path of the file the job reads ("" when none).
	Input string `json:"input,omitempty"`
	// Output is the path of the file the job may write ("" when none).
	Output string `json:"output,omitempty"`
	// Timeout is how long the job may take; the worker ends its context
	// then, and the parent kills it a little later.
	Timeout time.Duration `json:"timeout"`
}

// JobError is a failure a Handler reports about its input: a code the
// caller switches on, with arguments and a message for the log.
type JobError struct {
	Code    string          `json:"code"`
	Message string          `json:"message,omitempty"`
	Args    json.RawMessage `json:"args,omitempty"`
}

func (e *JobError) Error() string {
	if e.Message == "" {
		return "pdf worker: " + e.Code
	}
	return "pdf worker: " + e.Code + ": " + e.Message
}

// answer is the worker's reply to one Request.
type answer struct {
	Result json.RawMessage `json:"result,omitempty"`
	Error  *JobError       `json:"error,omitempty"`
}

// hello is the first frame a worker writes once it is ready for jobs.
type hello struct {
	PID int `json:"pid"`
}

// maxRequestBytes bounds a request frame: paths and arguments, the largest
// being an anchor search's anchors (bounded by the API's 10 MiB body).
const maxRequestBytes = 32 << 20

// errFrameTooLarge reports a frame longer than its reader allows.
var errFrameTooLarge = errors.New("pdf worker: frame too large")

// writeFrame writes v as one JSON frame.
func writeFrame(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	var head [4]byte
	if len(b) > 1<<31-1 {
		return errFrameTooLarge
	}
	binary.BigEndian.PutUint32(head[:], uint32(len(b)))
	if _, err := w.Write(head[:]); err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// writeAck writes the empty frame that acknowledges a job, and flushes it.
func writeAck(w *bufio.Writer) error {
	if _, err := w.Write([]byte{0, 0, 0, 0}); err != nil {
		return err
	}
	return w.Flush()
}

// readFrame reads one frame of at most limit bytes; a longer one is
// errFrameTooLarge before any of it is read.
func readFrame(r io.Reader, limit int64) ([]byte, error) {
	var head [4]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return nil, err
	}
	n := int64(binary.BigEndian.Uint32(head[:]))
	if n > limit {
		return nil, fmt.Errorf("%w: %d bytes, at most %d", errFrameTooLarge, n, limit)
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return b, nil
}
