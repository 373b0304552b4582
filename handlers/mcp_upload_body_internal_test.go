package handlers

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
)

// extracted runs extractUpload on body and returns the rewritten message
// and the decoded file's bytes.
func extracted(t testing.TB, body string, limit, maxOut int64) (string, *mcpUpload, []byte, error) {
	t.Helper()
	var out bytes.Buffer
	up, err := extractUpload(strings.NewReader(body), &out, t.TempDir(), limit, maxOut)
	if err != nil || up == nil {
		return out.String(), up, nil, err
	}
	t.Cleanup(up.close)
	b, rerr := io.ReadAll(up.file)
	if rerr != nil {
		t.Fatal(rerr)
	}
	return out.String(), up, b, nil
}

func call(args string) string {
	return `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"upload_document","arguments":` + args + `}}`
}

func TestExtractUploadLeavesTheMessageAndTakesTheFile(t *testing.T) {
	t.Parallel()
	file := []byte("%PDF-1.7 some bytes \x00\xff of a file")
	text := base64.StdEncoding.EncodeToString(file)
	// "/" escaped as JSON allows, line breaks inside, space and padding around.
	escaped := strings.ReplaceAll(text[:10], "/", `\/`) + `\n` + text[10:]
	body := call(`{"filename":"a.pdf","content_base64":" ` + escaped + ` \n","title":"T"}`)
	msg, up, got, err := extracted(t, body, 1<<20, 1<<20)
	if err != nil || up == nil {
		t.Fatalf("extract: %v, %v", up, err)
	}
	if !bytes.Equal(got, file) || up.corrupt != -1 || up.decoded != int64(len(file)) {
		t.Fatalf("decoded %q (corrupt %d, decoded %d), want %q", got, up.corrupt, up.decoded, file)
	}
	var want, have any
	_ = json.Unmarshal([]byte(call(`{"filename":"a.pdf","content_base64":"","title":"T"}`)), &want)
	if err := json.Unmarshal([]byte(msg), &have); err != nil {
		t.Fatalf("the message left is not JSON: %v\n%s", err, msg)
	}
	wb, _ := json.Marshal(want)
	hb, _ := json.Marshal(have)
	if !bytes.Equal(wb, hb) {
		t.Errorf("message left %s, want %s", hb, wb)
	}
}

// The key is read as JSON reads it (escapes decoded) and the last of two
// values counts, as in a decoded object, so no spelling keeps the text in
// the message for the SDK to decode whole.
func TestExtractUploadFollowsJSONKeys(t *testing.T) {
	t.Parallel()
	a := base64.StdEncoding.EncodeToString([]byte("first"))
	b := base64.StdEncoding.EncodeToString([]byte("second"))
	msg, up, got, err := extracted(t, call(`{"filename":"a.pdf","content\u005fbase64":"`+a+`","content_base64":"`+b+`"}`), 1<<20, 1<<20)
	if err != nil || up == nil || string(got) != "second" || strings.Contains(msg, a) || strings.Contains(msg, b) {
		t.Fatalf("got %q, message %s, %v", got, msg, err)
	}
	// Elsewhere in the message the key is an ordinary one.
	msg, up, _, err = extracted(t, `{"method":"tools/call","params":{"name":"upload_document","content_base64":"`+a+`","arguments":{"x":[{"content_base64":"`+a+`"}]}}}`, 1<<20, 1<<20)
	if err != nil || up != nil || strings.Count(msg, a) != 2 {
		t.Fatalf("an unrelated key was taken: %v, %s, %v", up, msg, err)
	}
}

func TestExtractUploadBoundsTheRestOfTheMessage(t *testing.T) {
	t.Parallel()
	text := base64.StdEncoding.EncodeToString(bytes.Repeat([]byte("x"), 4096))
	_, _, _, err := extracted(t, call(`{"filename":"`+strings.Repeat("n", 5000)+`","content_base64":"`+text+`"}`), 1<<20, 1024)
	if !errors.Is(err, errUploadMessageTooLarge) {
		t.Fatalf("a 5,000-byte file name with 1,024 bytes allowed: %v", err)
	}
	_, up, got, err := extracted(t, call(`{"filename":"a.pdf","content_base64":"`+text+`"}`), 1<<20, 1024)
	if err != nil || len(got) != 4096 || up.decoded != 4096 {
		t.Fatalf("the file itself does not count: %d bytes, %v", len(got), err)
	}
	// Past the file's limit nothing more is written, but the size is counted.
	_, up, got, err = extracted(t, call(`{"filename":"a.pdf","content_base64":"`+text+`"}`), 100, 1024)
	if err != nil || len(got) != 100 || up.decoded != 4096 {
		t.Fatalf("limit 100: wrote %d, counted %d, %v", len(got), up.decoded, err)
	}
}

// The stream decodes what the tool used to decode whole — the text with
// white space at its ends and its padding trimmed, through encoding/base64's
// RawStdEncoding decoder — and refuses what it refused.
func TestExtractUploadDecodesAsTheWholeStringDid(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	alphabet := []byte("AQgw/+09azZ= \t\r\n*")
	for round := range 5000 {
		text := make([]byte, rng.IntN(40))
		for i := range text {
			text[i] = alphabet[rng.IntN(len(alphabet))]
		}
		if round%3 == 0 { // mostly valid text, with padding and space around
			raw := make([]byte, rng.IntN(30))
			for i := range raw {
				raw[i] = byte(rng.Uint32())
			}
			text = []byte(" " + base64.StdEncoding.EncodeToString(raw) + "\n")
		}
		js, _ := json.Marshal(string(text))
		_, up, got, err := extracted(t, call(`{"filename":"a.pdf","content_base64":`+string(js)+`}`), 1<<20, 1<<20)
		if err != nil || up == nil {
			t.Fatalf("%q: %v", text, err)
		}
		trimmed := strings.TrimRight(strings.TrimSpace(string(text)), "=")
		want, werr := io.ReadAll(base64.NewDecoder(base64.RawStdEncoding, strings.NewReader(trimmed)))
		if (werr != nil) != (up.corrupt >= 0) || werr == nil && !bytes.Equal(got, want) {
			t.Fatalf("%q: stream %q (corrupt at %d), whole string %q (%v)", text, got, up.corrupt, want, werr)
		}
	}
}

// FuzzExtractUpload: any body is copied or refused without a panic, the
// message left never passes its limit, and the scan allocates a bounded
// amount whatever the body holds (no more than a few times its size plus
// the buffers).
func FuzzExtractUpload(f *testing.F) {
	f.Add(call(`{"filename":"a.pdf","content_base64":"JVBERi0xLjcK"}`))
	f.Add(call(`{"filename":"a.pdf","content\u005fbase64":"JV\/BERi0x\nLjcK=="}`))
	f.Add(`{"params":{"arguments":{"content_base64":"` + strings.Repeat("[", 100) + `"}}}`)
	f.Add(strings.Repeat(`{"params":`, 100))
	f.Add(`[` + call(`{}`) + `]`)
	f.Fuzz(func(t *testing.T, body string) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		var out bytes.Buffer
		up, err := extractUpload(strings.NewReader(body), &out, t.TempDir(), 1<<20, 4096)
		runtime.ReadMemStats(&after)
		up.close()
		if err == nil && out.Len() > 4096 {
			t.Fatalf("the message left has %d bytes, past 4096", out.Len())
		}
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 64*uint64(len(body))+1<<20 {
			t.Fatalf("%d bytes of body allocated %d bytes", len(body), grew)
		}
	})
}
