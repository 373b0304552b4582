package templatematch_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/markuproom/markuproom/models/templatematch"
)

func TestEncodingRoundTrip(t *testing.T) {
	fps := []templatematch.Fingerprint{
		{},
		templatematch.FingerprintOf([]templatematch.Page{letter("")}),
		templatematch.FingerprintOf([]templatematch.Page{letter(prose(1, 300)), letter(""), {Width: 595.3, Height: 841.9, Text: prose(2, 50)}}),
	}
	for i, fp := range fps {
		data, err := fp.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var back templatematch.Fingerprint
		if err := back.UnmarshalBinary(data); err != nil {
			t.Fatalf("%d: %v", i, err)
		}
		again, _ := back.MarshalBinary()
		if !bytes.Equal(data, again) {
			t.Fatalf("%d: the round trip changed the encoding", i)
		}
		if back.Pages() != fp.Pages() || (fp.Pages() > 0 && templatematch.Score(fp, back) != templatematch.Score(fp, fp)) {
			t.Fatalf("%d: decoded fingerprint differs", i)
		}
	}
	three, _ := fps[2].MarshalBinary()
	if len(three) > 3*300 {
		t.Errorf("a three-page fingerprint takes %d bytes", len(three))
	}
	t.Logf("a three-page fingerprint takes %d bytes", len(three))
}

func TestUnmarshalRefusesWhatItDidNotWrite(t *testing.T) {
	good, _ := templatematch.FingerprintOf([]templatematch.Page{letter(prose(1, 100))}).MarshalBinary()
	tests := map[string][]byte{
		"empty":             nil,
		"unknown version":   append([]byte{9}, good[1:]...),
		"cut short":         good[:len(good)-1],
		"trailing bytes":    append(append([]byte(nil), good...), 0),
		"too many pages":    {1, 0xd1, 0x0f},                        // 2001
		"pages past data":   {1, 0xd0, 0x0f},                        // 2000 pages, no bytes
		"shingles past cap": append([]byte{1, 1, 2, 3}, 0x81, 0x40), // 8193
		"bad uvarint":       {1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01},
	}
	for name, data := range tests {
		var fp templatematch.Fingerprint
		if err := fp.UnmarshalBinary(data); !errors.Is(err, templatematch.ErrBadEncoding) {
			t.Errorf("%s: %v, want ErrBadEncoding", name, err)
		}
	}
}

// FuzzUnmarshalBinary: the decoder of stored fingerprints never panics or
// allocates past its bounds, and what it accepts encodes back to the same
// bytes and scores like itself.
func FuzzUnmarshalBinary(f *testing.F) {
	for _, pages := range [][]templatematch.Page{nil, {letter("")}, {letter(prose(1, 50)), letter(prose(2, 5))}} {
		data, _ := templatematch.FingerprintOf(pages).MarshalBinary()
		f.Add(data)
	}
	f.Add([]byte{1, 0xd0, 0x0f})
	f.Fuzz(func(t *testing.T, data []byte) {
		var fp templatematch.Fingerprint
		if err := fp.UnmarshalBinary(data); err != nil {
			return
		}
		again, err := fp.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var back templatematch.Fingerprint
		if err := back.UnmarshalBinary(again); err != nil {
			t.Fatalf("re-encoded fingerprint refused: %v", err)
		}
		if s := templatematch.Score(fp, back); s < 0 || s > 1 {
			t.Fatalf("score %v out of 0–1", s)
		}
	})
}
