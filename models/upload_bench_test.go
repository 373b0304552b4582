package models_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// BenchmarkStageUpload times Store.StageUpload of the same document as
// uploaded (read once, as before the repair pass existed), with its offsets
// shifted (read, repaired, read again) and encrypted with an empty user
// password (read, decrypted, read again).
func BenchmarkStageUpload(b *testing.B) {
	env := modelstest.New(b, models.DialectSQLite)
	ctx := context.Background()
	three := pdftest.ThreePages(b)
	for _, bc := range []struct {
		name string
		data []byte
	}{
		{"ordinary", three},
		{"offsets-shifted", shiftedOffsets(b, three)},
		{"empty-user-password", pdftest.Encrypted(b)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				u, err := env.Store.StageUpload(ctx, bytes.NewReader(bc.data), int64(len(bc.data)), "bench.pdf")
				if err != nil {
					b.Fatal(err)
				}
				_ = u.Close()
			}
		})
	}
}
