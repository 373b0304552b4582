package models_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

// A process killed mid-upload leaves its staged file behind; the next
// start and the retention sweep remove such files once they are an hour
// old, and leave younger ones (a request in flight) and others' files alone.
func TestStaleStagedUploadsAreRemoved(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env := modelstest.New(t, models.DialectSQLite)
	store := models.NewStore(env.DB, env.Bucket, models.StoreOptions{TempDir: dir})
	now := time.Now()
	files := map[string]time.Time{
		"markuproom-upload-123.pdf":   now.Add(-2 * time.Hour),
		"markuproom-upload-456.pdf":   now.Add(-61 * time.Minute),
		"markuproom-upload-789.pdf":   now.Add(-time.Minute),
		"someone-elses-file.pdf":      now.Add(-48 * time.Hour),
		"markuproom-upload-notes.txt": now.Add(-48 * time.Hour),
	}
	for name, mtime := range files {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte("%PDF-"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	n, err := store.RemoveStaleUploads(now.Add(-models.StaleUploadAge))
	if err != nil || n != 2 {
		t.Fatalf("removed %d, %v; want the two hour-old staged uploads", n, err)
	}
	left, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(left) != 3 {
		t.Errorf("left %q", left)
	}
	for _, gone := range []string{"markuproom-upload-123.pdf", "markuproom-upload-456.pdf"} {
		if _, err := os.Stat(filepath.Join(dir, gone)); !os.IsNotExist(err) {
			t.Errorf("%s is still there", gone)
		}
	}
}
