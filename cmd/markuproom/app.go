package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"gocloud.dev/blob"

	"github.com/markuproom/markuproom/handlers"
	"github.com/markuproom/markuproom/models"
	mrblob "github.com/markuproom/markuproom/models/blob"
	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/pdfworker"
)

// app is what every command that touches data opens.
type app struct {
	cfg    config
	db     *models.Database
	bucket *blob.Bucket
	store  *models.Store
	// pdf runs the PDF jobs in worker processes; close stops them.
	pdf *models.PDFWork
	log *slog.Logger
	// requests counts this instance's API requests for the overview
	// (serve only; startRollups flushes it).
	requests *models.RollupRecorder
}

// openApp loads the configuration, opens the database (applying pending
// migrations unless MARKUPROOM_AUTO_MIGRATE=false) and the bucket.
func (e *cliEnv) openApp(ctx context.Context, logger *slog.Logger) (*app, error) {
	cfg, err := loadConfig(e.getenv)
	if err != nil {
		return nil, &usageError{err}
	}
	db, err := models.OpenDatabase(ctx, models.DatabaseOptions{URL: cfg.DatabaseURL, DataDir: cfg.DataDir, Logger: logger})
	if err != nil {
		return nil, err
	}
	ok := false
	defer func() {
		if !ok {
			_ = db.Close()
		}
	}()
	// SQLite always migrates: the file belongs to this binary alone.
	if cfg.AutoMigrate || db.Dialect == models.DialectSQLite {
		applied, err := db.Migrate(ctx)
		if err != nil {
			return nil, err
		}
		if len(applied) > 0 {
			logger.InfoContext(ctx, "applied migrations", "versions", applied)
		}
	} else if err := db.CheckSchema(ctx); err != nil {
		return nil, err
	}
	bucket, err := mrblob.Open(ctx, cfg.BlobURL)
	if err != nil {
		return nil, err
	}
	limits := pdf.LimitsForMemory(cfg.PDFWorkerMemory, cfg.MaxUploadBytes) // the object cap; the decode caps as configured
	limits.MaxStreamBytes, limits.MaxFileBytes = cfg.PDFMaxDecodedStreamBytes, cfg.PDFMaxDecodedFileBytes
	pdfWork := models.NewPDFWork(models.PDFWorkOptions{Concurrency: cfg.PDFConcurrency, MaxOutput: cfg.MaxUploadBytes, Limits: limits,
		Worker: pdfworker.Options{Memory: cfg.PDFWorkerMemory, CPU: cfg.PDFWorkerCPU, Timeout: cfg.PDFWorkerTimeout,
			MaxJobs: cfg.PDFWorkerJobs, Logger: logger}})
	keys, err := cfg.keyring()
	if err != nil {
		_ = bucket.Close()
		return nil, &usageError{err}
	}
	store := models.NewStore(db, bucket, models.StoreOptions{EVault: cfg.EVault, RoomTTL: cfg.RoomTTL, IdempotencyTTL: cfg.IdempotencyRetention, Logger: logger, PDF: pdfWork, Keyring: keys,
		MaxTemplates: cfg.MaxTemplates, RoomStreamsPerRoom: cfg.RoomStreamsPerRoom, StreamsPerInstance: cfg.StreamsPerInstance})
	ok = true
	return &app{cfg: cfg, db: db, bucket: bucket, store: store, pdf: pdfWork, log: logger}, nil
}

// close seals the audit events left unsealed (sealAuditBacklog), then
// closes what openApp opened.
func (a *app) close() {
	a.sealAuditBacklog()
	_ = a.pdf.Close()
	_ = a.bucket.Close()
	_ = a.db.Close()
}

// usageError marks configuration and usage mistakes (exit code 2).
type usageError struct{ err error }

func (u *usageError) Error() string { return u.err.Error() }
func (u *usageError) Unwrap() error { return u.err }

// fail prints err and returns the matching exit code.
func (e *cliEnv) fail(prefix string, err error) int {
	var ve *models.ValidationError
	if errors.As(err, &ve) {
		handlers.WordValidation(ve)
		fmt.Fprintf(e.stderr, "markuproom %s: %s\n", prefix, ve.Detail)
		for _, f := range ve.Errors {
			fmt.Fprintf(e.stderr, "  %s: %s\n", strings.TrimPrefix(f.Pointer, "#/"), f.Detail)
		}
		return 1
	}
	fmt.Fprintf(e.stderr, "markuproom %s: %v\n", prefix, err)
	var ue *usageError
	if errors.As(err, &ue) {
		return 2
	}
	return 1
}
