package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/prometheus/client_golang/prometheus"
	"gocloud.dev/blob"
	"gocloud.dev/blob/memblob"

	"github.com/markuproom/markuproom/handlers"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/static"
)

// productBaseURL is the public origin the product router claims; document
// locations are matched by path, so it need not be the listener's address.
const productBaseURL = "http://loadbench.invalid"

// productEnv is the real store on a freshly migrated schema, with one
// organization, its sender, an API token and one uploaded 3-page PDF.
type productEnv struct {
	db      *models.Database
	bucket  *blob.Bucket
	store   *models.Store
	tempDir string

	// sealDB and stopSealer: the audit sealer, on a connection pool of
	// its own (its statements are not the requests' round trips), run as
	// the server runs it.
	sealDB     *models.Database
	stopSealer func()

	org     *models.Organization
	sender  *models.User
	token   string
	tokenID int64
	actor   models.Actor
	doc     *models.Document
}

func setupProduct(ctx context.Context, dbURL string, tracer pgx.QueryTracer) (*productEnv, error) {
	db, err := models.OpenDatabase(ctx, models.DatabaseOptions{URL: dbURL, Tracer: tracer})
	if err != nil {
		return nil, err
	}
	e := &productEnv{db: db, bucket: memblob.OpenBucket(nil)}
	ok := false
	defer func() {
		if !ok {
			e.close()
		}
	}()
	if _, err := db.Migrate(ctx); err != nil {
		return nil, err
	}
	if e.tempDir, err = os.MkdirTemp("", "loadbench-"); err != nil {
		return nil, err
	}
	e.store = models.NewStore(db, e.bucket, models.StoreOptions{TempDir: e.tempDir})
	if err := e.startSealer(ctx, dbURL); err != nil {
		return nil, err
	}
	if e.org, err = e.store.CreateOrganization(ctx, "Loadbench", true); err != nil {
		return nil, fmt.Errorf("create organization: %w", err)
	}
	if e.sender, err = e.store.CreateUser(ctx, models.NewUser{OrganizationID: e.org.ID, Email: "sender@loadbench.example.com", FirstName: "Sam", LastName: "Sender"}); err != nil {
		return nil, fmt.Errorf("create sender: %w", err)
	}
	tok, plaintext, err := e.store.CreateAPIToken(ctx, e.org.ID, "loadbench")
	if err != nil {
		return nil, fmt.Errorf("create token: %w", err)
	}
	e.token, e.tokenID = plaintext, tok.ID
	p, err := e.store.AuthenticateAPIToken(ctx, plaintext)
	if err != nil {
		return nil, fmt.Errorf("authenticate: %w", err)
	}
	e.actor = (&models.Principal{Organization: p.Organization, Token: p.Token}).Actor()
	content, err := pdf.Sample(3, "Bench")
	if err != nil {
		return nil, err
	}
	staged, err := e.store.StageUpload(ctx, bytes.NewReader(content), int64(len(content))+1, "contract.pdf")
	if err != nil {
		return nil, fmt.Errorf("stage upload: %w", err)
	}
	defer staged.Close()
	if e.doc, err = e.store.SaveDocument(ctx, staged, models.NewDocument{OrganizationID: e.org.ID, TokenID: &tok.ID, Title: "Bench contract"}); err != nil {
		return nil, fmt.Errorf("save upload: %w", err)
	}
	ok = true
	return e, nil
}

// createTransactions creates n transactions from body and returns their ids.
func createTransactions(ctx context.Context, store *models.Store, actor models.Actor, body []byte, n int) ([]string, error) {
	in, err := models.ParseTransactionInput(body)
	if err != nil {
		return nil, err
	}
	ids := make([]string, n)
	for i := range ids {
		t, err := store.CreateTransaction(ctx, actor, in)
		if err != nil {
			return nil, fmt.Errorf("create transaction: %w", err)
		}
		ids[i] = t.ID
	}
	return ids, nil
}

// router is the real HTTP handler, configured as cmd/markuproom configures
// it; its JSON logs (one access line per request) are formatted and discarded.
func (e *productEnv) router() (http.Handler, error) {
	assets, err := static.New()
	if err != nil {
		return nil, err
	}
	return handlers.New(handlers.Deps{
		Config: handlers.Config{
			BaseURL:       productBaseURL,
			SessionSecret: bytes.Repeat([]byte("k"), 32),
			// As MARKUPROOM_RATE_LIMITS=off: the load measures the service,
			// not the limits (one token would be refused after 500 requests).
			RateLimits: handlers.RateLimits{Off: true},
		},
		Store:    e.store,
		Assets:   assets,
		Logger:   slog.New(slog.NewJSONHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelInfo})),
		Registry: prometheus.NewRegistry(),
	})
}

// auditSealInterval is the server's (cmd/markuproom): the product pays
// for chaining its audit events as a server does.
const auditSealInterval = 250 * time.Millisecond

// startSealer runs the audit sealer every auditSealInterval until close.
func (e *productEnv) startSealer(ctx context.Context, dbURL string) error {
	db, err := models.OpenDatabase(ctx, models.DatabaseOptions{URL: dbURL})
	if err != nil {
		return err
	}
	e.sealDB = db
	sealer := models.NewStore(db, e.bucket, models.StoreOptions{TempDir: e.tempDir})
	runCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(auditSealInterval)
		defer t.Stop()
		for {
			select {
			case <-runCtx.Done():
				return
			case <-t.C:
				_, _ = sealer.SealAudit(runCtx) // a failed pass leaves the events for the next
			}
		}
	}()
	e.stopSealer = func() { cancel(); <-done }
	return nil
}

func (e *productEnv) close() {
	if e.stopSealer != nil {
		e.stopSealer()
	}
	if e.sealDB != nil {
		_ = e.sealDB.Close()
	}
	if e.bucket != nil {
		_ = e.bucket.Close()
	}
	if e.db != nil {
		_ = e.db.Close()
	}
	if e.tempDir != "" {
		_ = os.RemoveAll(e.tempDir)
	}
}
