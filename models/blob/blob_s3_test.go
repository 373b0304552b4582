package blob_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
	gcblob "gocloud.dev/blob"
	"gocloud.dev/gcerrors"

	"github.com/markuproom/markuproom/models/blob"
)

// TestOpenS3URLWithEndpoint opens an s3:// URL the way an S3-compatible
// store is configured (endpoint, path-style addressing, region; credentials
// from the standard AWS variables) against an S3-protocol server on
// loopback, and writes, reads, lists and deletes a PDF through it.
func TestOpenS3URLWithEndpoint(t *testing.T) {
	backend := s3mem.New()
	if err := backend.CreateBucket("pdfs"); err != nil {
		t.Fatal(err)
	}
	var multipart atomic.Int32 // UploadPart requests seen
	s3 := gofakes3.New(backend).Server()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Has("uploadId") && r.URL.Query().Has("partNumber") {
			multipart.Add(1)
		}
		s3.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	setTestAWSEnv(t)

	ctx := context.Background()
	rawURL := s3URL("pdfs", srv.URL)
	b, err := blob.Open(ctx, rawURL)
	if err != nil {
		t.Fatalf("open %s: %v", rawURL, err)
	}
	t.Cleanup(func() { _ = b.Close() })
	if ok, err := b.IsAccessible(ctx); !ok || err != nil {
		t.Fatalf("IsAccessible: %v %v", ok, err)
	}
	content := []byte("%PDF-1.7\n% not really a PDF, but bytes the server must keep\n")
	if err := b.WriteAll(ctx, "docs/a.pdf", content, nil); err != nil {
		t.Fatal(err)
	}
	// The object is in the S3 server's bucket, not anywhere else.
	obj, err := backend.GetObject("pdfs", "docs/a.pdf", nil)
	if err != nil {
		t.Fatalf("the S3 server has no object: %v", err)
	}
	stored, _ := io.ReadAll(obj.Contents)
	_ = obj.Contents.Close()
	if !bytes.Equal(stored, content) {
		t.Fatalf("the S3 server holds %q", stored)
	}
	got, err := b.ReadAll(ctx, "docs/a.pdf")
	if err != nil || !bytes.Equal(got, content) {
		t.Fatalf("read back: %q %v", got, err)
	}
	it := b.List(nil)
	obj1, err := it.Next(ctx)
	if err != nil || obj1.Key != "docs/a.pdf" || obj1.Size != int64(len(content)) {
		t.Fatalf("list: %+v %v", obj1, err)
	}
	if err := b.Delete(ctx, "docs/a.pdf"); err != nil {
		t.Fatal(err)
	}
	if _, err := b.ReadAll(ctx, "docs/a.pdf"); gcerrors.Code(err) != gcerrors.NotFound {
		t.Fatalf("after delete: %v", err)
	}

	// The largest upload (MARKUPROOM_MAX_UPLOAD_BYTES, 50 MiB), written the
	// way models.Store writes it (a streamed copy into NewWriter), goes up as
	// a multipart upload; a range of it reads back.
	large := bytes.Repeat([]byte("0123456789abcdef"), 50<<20/16)
	w, err := b.NewWriter(ctx, "docs/large.pdf", &gcblob.WriterOptions{ContentType: "application/pdf"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(w, bytes.NewReader(large)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatalf("a 50 MiB write: %v", err)
	}
	attrs, err := b.Attributes(ctx, "docs/large.pdf")
	if err != nil || attrs.Size != int64(len(large)) || attrs.ContentType != "application/pdf" {
		t.Fatalf("the 50 MiB object: %+v %v", attrs, err)
	}
	if n := multipart.Load(); n < 2 {
		t.Fatalf("the 50 MiB write went up in %d parts, want a multipart upload", n)
	}
	r, err := b.NewRangeReader(ctx, "docs/large.pdf", 8<<20, 16, nil)
	if err != nil {
		t.Fatal(err)
	}
	part, _ := io.ReadAll(r)
	_ = r.Close()
	if !bytes.Equal(part, large[8<<20:8<<20+16]) {
		t.Fatalf("a range of the 50 MiB object: %q", part)
	}

	// A bucket that does not exist is reported, not created.
	missing, err := blob.Open(ctx, s3URL("nope", srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	defer missing.Close()
	if err := missing.WriteAll(ctx, "x.pdf", content, nil); err == nil {
		t.Fatal("a write to a missing bucket succeeded")
	}

	// An unknown query parameter is refused when the bucket is opened.
	if _, err := blob.Open(ctx, rawURL+"&bogus=1"); err == nil || !strings.Contains(err.Error(), "bogus") {
		t.Fatalf("unknown parameter: %v", err)
	}
}

// s3URL is the MARKUPROOM_BLOB_URL of bucket on an S3-compatible server at
// endpoint (http://host:port).
func s3URL(bucket, endpoint string) string {
	q := url.Values{"endpoint": {endpoint}, "use_path_style": {"true"}, "region": {"us-east-1"}}
	return "s3://" + bucket + "?" + q.Encode()
}

// setTestAWSEnv gives the AWS SDK static credentials and no shared config
// files, so that nothing outside the test is read or reached.
func setTestAWSEnv(t *testing.T) {
	t.Setenv("AWS_ACCESS_KEY_ID", "test-access-key")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test-secret-key")
	t.Setenv("AWS_SESSION_TOKEN", "")
	t.Setenv("AWS_PROFILE", "")
	t.Setenv("AWS_CONFIG_FILE", "/nonexistent/aws-config")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/aws-credentials")
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
}
