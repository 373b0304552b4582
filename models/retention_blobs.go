package models

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"gocloud.dev/blob"
)

// documentsPrefix is where every stored PDF lives in the bucket
// ("orgs/<org>/documents/<id>.pdf", see SaveDocument).
const documentsPrefix = "orgs/"

// sweepOrphanBlobs deletes bucket objects under documentsPrefix that are
// older than cutoff and that no documents row names: what is left when a
// process stopped between writing the object and committing its row, or
// when a row was deleted. Objects younger than cutoff are left alone, so an
// upload whose row is about to be committed is never touched. Keys are
// checked batch keys at a time.
func (s *Store) sweepOrphanBlobs(ctx context.Context, cutoff time.Time, batch int) (int64, error) {
	var deleted int64
	it := s.bucket.List(&blob.ListOptions{Prefix: documentsPrefix})
	var keys []string
	flush := func() error {
		if len(keys) == 0 {
			return nil
		}
		var known []string
		if err := s.db.WithContext(ctx).Model(&Document{}).Where("object_key IN ?", keys).Pluck("object_key", &known).Error; err != nil {
			return mapDBError(err)
		}
		have := make(map[string]bool, len(known))
		for _, k := range known {
			have[k] = true
		}
		for _, k := range keys {
			if have[k] {
				continue
			}
			if err := s.bucket.Delete(ctx, k); err != nil {
				return fmt.Errorf("delete %s: %w", k, err)
			}
			deleted++
		}
		keys = keys[:0]
		return nil
	}
	for {
		obj, err := it.Next(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return deleted, fmt.Errorf("list the bucket: %w", err)
		}
		if obj.IsDir || !obj.ModTime.Before(cutoff) {
			continue
		}
		keys = append(keys, obj.Key)
		if len(keys) >= batch {
			if err := flush(); err != nil {
				return deleted, err
			}
		}
	}
	return deleted, flush()
}
