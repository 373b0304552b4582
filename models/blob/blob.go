// Package blob opens the bucket that holds uploaded PDFs, through
// gocloud.dev/blob: file:// by default, gs:// and s3:// in production, mem://
// in tests. An S3-compatible store (MinIO, Ceph, R2, …) is an s3:// URL with
// gocloud's query parameters, e.g.
// s3://pdfs?endpoint=https://minio.internal:9000&use_path_style=true&region=us-east-1;
// credentials come from the standard AWS variables (AWS_ACCESS_KEY_ID,
// AWS_SECRET_ACCESS_KEY) or the platform's role, gs:// from Application
// Default Credentials.
package blob

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"

	"gocloud.dev/blob"
	"gocloud.dev/blob/fileblob"
	_ "gocloud.dev/blob/gcsblob" // gs:// URLs
	_ "gocloud.dev/blob/memblob" // mem:// URLs, for tests
	_ "gocloud.dev/blob/s3blob"  // s3:// URLs
)

// DefaultURL is the file bucket inside dataDir.
func DefaultURL(dataDir string) string {
	abs, err := filepath.Abs(filepath.Join(dataDir, "blobs"))
	if err != nil {
		abs = filepath.Join(dataDir, "blobs")
	}
	return "file://" + filepath.ToSlash(abs)
}

// Open opens the bucket at rawURL, creating the directory of a file:// bucket.
func Open(ctx context.Context, rawURL string) (*blob.Bucket, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("MARKUPROOM_BLOB_URL %q: %w", rawURL, err)
	}
	if u.Scheme == "file" {
		dir := u.Path
		if dir == "" {
			return nil, fmt.Errorf("MARKUPROOM_BLOB_URL %q names no directory", rawURL)
		}
		if err := os.MkdirAll(dir, 0o750); err != nil {
			return nil, fmt.Errorf("create blob dir: %w", err)
		}
		// Temporary files go next to the bucket so the final rename stays on one file system.
		return fileblob.OpenBucket(dir, &fileblob.Options{CreateDir: true, NoTempDir: true})
	}
	switch u.Scheme {
	case "gs", "s3", "mem":
	default:
		return nil, fmt.Errorf("MARKUPROOM_BLOB_URL must be a file://, gs:// or s3:// URL (got %q)", rawURL)
	}
	b, err := blob.OpenBucket(ctx, rawURL)
	if err != nil {
		return nil, fmt.Errorf("open bucket %q: %w", rawURL, err)
	}
	return b, nil
}
