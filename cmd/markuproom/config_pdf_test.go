package main

import (
	"strings"
	"testing"
)

func TestPDFConfiguration(t *testing.T) {
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	c, err := loadConfig(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.PDFMaxDecodedStreamBytes != 32<<20 || c.PDFMaxDecodedFileBytes != 96<<20 || c.PDFConcurrency != 2 {
		t.Fatalf("defaults: %d, %d, %d", c.PDFMaxDecodedStreamBytes, c.PDFMaxDecodedFileBytes, c.PDFConcurrency)
	}
	c, err = loadConfig(env(map[string]string{"MARKUPROOM_PDF_MAX_DECODED_STREAM_BYTES": "1048576",
		"MARKUPROOM_PDF_MAX_DECODED_FILE_BYTES": "4194304", "MARKUPROOM_PDF_CONCURRENCY": "5"}))
	if err != nil || c.PDFMaxDecodedStreamBytes != 1<<20 || c.PDFMaxDecodedFileBytes != 4<<20 || c.PDFConcurrency != 5 {
		t.Fatalf("set: %+v, %v", c, err)
	}
	_, err = loadConfig(env(map[string]string{"MARKUPROOM_PDF_MAX_DECODED_STREAM_BYTES": "32MiB",
		"MARKUPROOM_PDF_MAX_DECODED_FILE_BYTES": "0", "MARKUPROOM_PDF_CONCURRENCY": "-1"}))
	for _, key := range []string{"MARKUPROOM_PDF_MAX_DECODED_STREAM_BYTES", "MARKUPROOM_PDF_MAX_DECODED_FILE_BYTES", "MARKUPROOM_PDF_CONCURRENCY"} {
		if err == nil || !strings.Contains(err.Error(), key) {
			t.Errorf("bad %s not reported: %v", key, err)
		}
	}
}

func TestMaxTemplatesConfiguration(t *testing.T) {
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	c, err := loadConfig(env(nil))
	if err != nil || c.MaxTemplates != 1000 {
		t.Fatalf("default: %d, %v", c.MaxTemplates, err)
	}
	if c, err = loadConfig(env(map[string]string{"MARKUPROOM_MAX_TEMPLATES": "25"})); err != nil || c.MaxTemplates != 25 {
		t.Fatalf("set: %d, %v", c.MaxTemplates, err)
	}
	for _, bad := range []string{"0", "-3", "many", "2000000"} {
		if _, err := loadConfig(env(map[string]string{"MARKUPROOM_MAX_TEMPLATES": bad})); err == nil || !strings.Contains(err.Error(), "MARKUPROOM_MAX_TEMPLATES") {
			t.Errorf("MARKUPROOM_MAX_TEMPLATES=%s not reported: %v", bad, err)
		}
	}
}
