package pdf

// The repair pass's output: a clean copy of the objects it found with a
// fresh cross-reference section (see repair.go), written into a buffer that
// stops at the copy's cap.

import (
	"bytes"
	"fmt"
	"maps"
	"slices"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// Bounds on a copy Mend writes of a file, whatever Limits.MaxOutputBytes:
// the copy holds each of the file's objects once and a fresh
// cross-reference section. The repair pass copies objects as written (a
// stream dictionary it fixes is written again), so its copy stays within
// repairGrowth times the file; decryption writes what pdfcpu decrypted in
// pdfcpu's words (a string escaped again at most doubles, a real number
// takes 12 decimals: ".5" becomes "0.500000000000"), so within
// decryptGrowth times. copySlack covers the object headers and
// cross-reference rows of up to maxRepairObjects objects. A copy past its
// bound is a bug copying something more than once, refused as damage.
const (
	repairGrowth  = 2
	decryptGrowth = 8
	copySlack     = 16 << 20
)

// outputCap returns the cap on a copy of a file of size bytes that may
// grow growth times, and the error that passing it gives: the bound above,
// or MaxOutputBytes when it is lower.
func (l Limits) outputCap(size, growth int64) (int64, error) {
	limit := growth*size + copySlack
	if l.MaxOutputBytes > 0 && l.MaxOutputBytes <= limit {
		return l.MaxOutputBytes, &OutputTooLargeError{Limit: l.MaxOutputBytes}
	}
	return limit, malformed("the mended copy would be larger than %s, %d times the file and more", MiB(limit), growth)
}

// cappedBuffer is a buffer that refuses, and keeps refusing, any write that
// would take it past limit: the writer stops as soon as its output passes
// the cap, not after.
type cappedBuffer struct {
	buf   bytes.Buffer
	limit int64
	over  error // returned once the cap is passed
	err   error
}

func (c *cappedBuffer) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	if int64(c.buf.Len())+int64(len(p)) > c.limit {
		c.err = c.over
		return 0, c.err
	}
	return c.buf.Write(p)
}

// WriteString is Write for a string.
func (c *cappedBuffer) WriteString(s string) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	if int64(c.buf.Len())+int64(len(s)) > c.limit {
		c.err = c.over
		return 0, c.err
	}
	return c.buf.WriteString(s)
}

// Len is the number of bytes written.
func (c *cappedBuffer) Len() int { return c.buf.Len() }

// failed is the error of a writer that wrote into c: the cap's when c
// refused a write (whatever the writer made of it), else err.
func (c *cappedBuffer) failed(err error) error {
	if c.err != nil {
		return c.err
	}
	return err
}

// write emits the header, every object found that is stored at a file
// offset, and a fresh cross-reference section: a table, or a stream when
// some objects sit in object streams. It fails as soon as the copy passes
// its cap (outputCap).
func (rb *rebuilder) write() ([]byte, error) {
	out := &cappedBuffer{limit: rb.outLimit, over: rb.tooLarge}
	out.buf.Grow(int(min(rb.outLimit, int64(len(rb.data))+int64(len(rb.data))/16+1024)))
	out.Write(rb.headerLine())
	out.WriteString("\n%\xe2\xe3\xcf\xd3\n")
	nums := slices.Sorted(maps.Keys(rb.objs))
	maxNum := 0
	if len(nums) > 0 {
		maxNum = nums[len(nums)-1]
	}
	offsets, compressed, err := rb.writeObjects(out, nums)
	if err != nil {
		return nil, err
	}
	trailer := rb.newTrailer()
	xrefAt := out.Len()
	if !compressed {
		rb.writeXRefTable(out, nums, maxNum, offsets, trailer)
	} else {
		rb.writeXRefStream(out, nums, maxNum, offsets, trailer, xrefAt)
	}
	fmt.Fprintf(out, "\nstartxref\n%d\n%%%%EOF\n", xrefAt)
	if out.err != nil {
		return nil, out.err
	}
	return out.buf.Bytes(), nil
}

// headerLine is the file's own %PDF line when it has a short one, else %PDF-1.7.
func (rb *rebuilder) headerLine() []byte {
	if rb.header != nil {
		return rb.header
	}
	header := rb.data[rb.base:]
	if i := bytes.IndexAny(header, "\r\n"); i > 0 && i < 32 {
		return header[:i]
	}
	return []byte("%PDF-1.7")
}

// writeObjects writes every object stored at a file offset, in the order of
// nums, a stream's Length fixed when it was wrong. It returns each one's
// offset and whether some objects sit in object streams, and stops at the
// first failed write (past the cap) or when the pass must stop.
func (rb *rebuilder) writeObjects(out *cappedBuffer, nums []int) (offsets map[int]int, compressed bool, err error) {
	offsets = make(map[int]int, len(nums))
	for _, num := range nums {
		if out.err != nil {
			return nil, false, out.err
		}
		if err := rb.ticker.Tick(); err != nil {
			return nil, false, err
		}
		f := rb.objs[num]
		if f.inStream != 0 {
			compressed = true
			continue
		}
		offsets[num] = out.Len()
		fmt.Fprintf(out, "%d %d obj\n", f.num, f.gen)
		switch {
		case f.isStream && f.fixLength:
			f.dict["Length"] = types.Integer(len(f.data))
			out.WriteString(f.dict.PDFString())
		default:
			out.Write(f.body)
		}
		if f.isStream {
			out.WriteString("\nstream\n")
			out.Write(f.data)
			out.WriteString("\nendstream")
		}
		out.WriteString("\nendobj\n")
	}
	return offsets, compressed, out.err
}

// newTrailer keeps the old trailer's Root, Info, ID and Encrypt, with the
// catalog found as Root when it had none.
func (rb *rebuilder) newTrailer() types.Dict {
	trailer := types.Dict{}
	for _, k := range []string{"Root", "Info", "ID", "Encrypt"} {
		if rb.trailer != nil {
			if v, ok := rb.trailer[k]; ok {
				trailer[k] = v
			}
		}
	}
	if _, ok := trailer["Root"]; !ok {
		trailer["Root"] = *types.NewIndirectRef(rb.catalog, rb.objs[rb.catalog].gen)
	}
	return trailer
}

// writeXRefTable writes a table with one subsection per run of object
// numbers in use, so that a few high numbers do not make a huge table, and
// the trailer.
func (rb *rebuilder) writeXRefTable(out *cappedBuffer, nums []int, maxNum int, offsets map[int]int, trailer types.Dict) {
	trailer["Size"] = types.Integer(maxNum + 1)
	out.WriteString("xref\n0 1\n0000000000 65535 f \n")
	for _, run := range runs(nums) {
		fmt.Fprintf(out, "%d %d\n", run[0], len(run))
		for _, n := range run {
			fmt.Fprintf(out, "%010d %05d n \n", offsets[n], rb.objs[n].gen)
		}
	}
	out.WriteString("trailer\n")
	out.WriteString(trailer.PDFString())
}

// writeXRefStream writes a cross-reference stream at xrefAt, unfiltered:
// rows of 1 + 8 + 2 bytes, indexed by runs of object numbers as the table
// of writeXRefTable, the trailer's entries in its dictionary.
func (rb *rebuilder) writeXRefStream(out *cappedBuffer, nums []int, maxNum int, offsets map[int]int, trailer types.Dict, xrefAt int) {
	self := maxNum + 1
	rows := make([]byte, 0, (len(nums)+2)*11)
	index := types.Array{}
	row := func(typ byte, f2, f3 uint64) {
		var r [11]byte
		r[0] = typ
		putBE(r[1:9], f2)
		putBE(r[9:11], f3)
		rows = append(rows, r[:]...)
	}
	for _, run := range runs(append([]int{0}, append(nums, self)...)) {
		index = append(index, types.Integer(run[0]), types.Integer(len(run)))
		for _, n := range run {
			f := rb.objs[n]
			switch {
			case n == 0:
				row(0, 0, 65535)
			case n == self:
				row(1, uint64(xrefAt), 0)
			case f.inStream != 0:
				row(2, uint64(f.inStream), uint64(f.index))
			default:
				row(1, uint64(offsets[n]), uint64(f.gen))
			}
		}
	}
	trailer["Type"] = types.Name("XRef")
	trailer["Size"] = types.Integer(self + 1)
	trailer["Index"] = index
	trailer["W"] = types.Array{types.Integer(1), types.Integer(8), types.Integer(2)}
	trailer["Length"] = types.Integer(len(rows))
	fmt.Fprintf(out, "%d 0 obj\n%s\nstream\n", self, trailer.PDFString())
	out.Write(rows)
	out.WriteString("\nendstream\nendobj\n")
}

// putBE writes v big-endian into b.
func putBE(b []byte, v uint64) {
	for i := len(b) - 1; i >= 0; i-- {
		b[i] = byte(v)
		v >>= 8
	}
}

// runs splits ascending numbers into runs of consecutive ones.
func runs(nums []int) [][]int {
	var out [][]int
	for i := 0; i < len(nums); {
		j := i + 1
		for j < len(nums) && nums[j] == nums[j-1]+1 {
			j++
		}
		out = append(out, nums[i:j])
		i = j
	}
	return out
}
