package templates

import (
	"context"
	"strings"
)

// repairWordIDs are the words of each repair of the upload pass
// (pdf.Repair* codes), by code.
var repairWordIDs = map[string]string{
	"xref_rebuilt":          "room.upload.repair.xref_rebuilt",
	"stream_length_fixed":   "room.upload.repair.stream_length_fixed",
	"line_endings_restored": "room.upload.repair.line_endings_restored",
	"eof_added":             "room.upload.repair.eof_added",
}

// uploadNote is the room's note after an upload that was decrypted or
// repaired, in the page's language; "" otherwise.
func uploadNote(ctx context.Context, decrypted bool, repairs []string) string {
	var parts []string
	if decrypted {
		parts = append(parts, t(ctx, "room.upload.decrypted"))
	}
	var done []string
	for _, r := range repairs {
		if id, ok := repairWordIDs[r]; ok {
			done = append(done, t(ctx, id))
		}
	}
	if len(done) > 0 {
		parts = append(parts, t(ctx, "room.upload.repaired", "repairs", strings.Join(done, t(ctx, "room.upload.repair.separator"))))
	}
	return strings.Join(parts, " ")
}
