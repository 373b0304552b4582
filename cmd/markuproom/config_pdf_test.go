package main

import (
	"strings"
	"testing"
	"time"

	"github.com/markuproom/markuproom/models/pdf"
)

func TestPDFConfiguration(t *testing.T) {
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	c, err := loadConfig(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	// The decode caps are sized from the workers' memory: 76 MiB a stream
	// and 200 MiB a file for 1 GiB workers and 50 MiB uploads.
	if c.PDFMaxDecodedStreamBytes != 76<<20 || c.PDFMaxDecodedFileBytes != 200<<20 || c.PDFConcurrency != 2 ||
		c.PDFWorkerMemory != 1<<30 || c.PDFWorkerTimeout != 20*time.Second || c.PDFWorkerCPU != 20*time.Second || c.PDFWorkerJobs != 200 {
		t.Fatalf("defaults: %d, %d, %d, %d, %s, %s, %d", c.PDFMaxDecodedStreamBytes, c.PDFMaxDecodedFileBytes, c.PDFConcurrency,
			c.PDFWorkerMemory, c.PDFWorkerTimeout, c.PDFWorkerCPU, c.PDFWorkerJobs)
	}
	c, err = loadConfig(env(map[string]string{"MARKUPROOM_PDF_WORKER_MEMORY": "536870912", "MARKUPROOM_PDF_WORKER_TIMEOUT": "30s",
		"MARKUPROOM_PDF_WORKER_JOBS": "10"}))
	want := pdf.LimitsForMemory(512<<20, 50<<20)
	if err != nil || c.PDFMaxDecodedStreamBytes != want.MaxStreamBytes || c.PDFMaxDecodedFileBytes != want.MaxFileBytes ||
		c.PDFMaxDecodedStreamBytes >= 76<<20 || c.PDFWorkerCPU != 30*time.Second || c.PDFWorkerJobs != 10 {
		t.Fatalf("smaller workers: %+v, %v", c, err)
	}
	_, err = loadConfig(env(map[string]string{"MARKUPROOM_PDF_WORKER_MEMORY": "1000", "MARKUPROOM_PDF_WORKER_TIMEOUT": "soon",
		"MARKUPROOM_PDF_WORKER_JOBS": "0"}))
	for _, key := range []string{"MARKUPROOM_PDF_WORKER_MEMORY", "MARKUPROOM_PDF_WORKER_TIMEOUT", "MARKUPROOM_PDF_WORKER_JOBS"} {
		if err == nil || !strings.Contains(err.Error(), key) {
			t.Errorf("bad %s not reported: %v", key, err)
		}
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
