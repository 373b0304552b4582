package main

import (
	"bytes"
	"context"
	"net/http"
	"time"
)

// measureUploads times scenario C, the API upload of an ordinary PDF
// (content) through the product alone (no baseline does the PDF checks): c
// workers for d after a warm-up, each upload a new document.
func measureUploads(ctx context.Context, client *http.Client, base, token string, content []byte, c int, warmup, d time.Duration) result {
	upload := func(ctx context.Context, _ int) (*http.Request, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/api/v1/documents/upload", bytes.NewReader(content))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/pdf")
		req.Header.Set("Authorization", "Bearer "+token)
		return req, nil
	}
	var r result
	r.addWarmup(phase(ctx, client, c, warmup, upload))
	r.add(phase(ctx, client, c, d, upload))
	r.finish()
	return r
}
