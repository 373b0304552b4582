package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/markuproom/markuproom/models/modelstest"
)

// benchEnv is what bench measures: the product and the baselines, each in a
// schema of its own with its transactions, served over loopback, and the
// client that loads them.
type benchEnv struct {
	dbURL, source, pgVersion string
	sch                      *schemas
	prodSchema, baseSchema   string
	// prodStmts and baseStmts count each side's statements.
	prodStmts, baseStmts roundTrips
	prod                 *productEnv
	// putBody is scenario A's body; prodTxIDs and baseTxIDs the
	// transactions it replaces, one per worker.
	putBody              []byte
	prodTxIDs, baseTxIDs []string
	pool                 *pgxpool.Pool
	prodSrv, baseSrv     *httptest.Server
	client               *http.Client
}

// setup creates the database when missing, then the product (a migrated
// schema, a tenant, one uploaded PDF, o.c transactions) and the baselines
// (the same tables in a schema of their own), and serves both. What it made
// before a failure is for close to undo.
func (e *benchEnv) setup(ctx context.Context, o options, logf func(string, ...any)) error {
	e.dbURL, e.source = benchDatabaseURL()
	created, err := ensureDatabase(ctx, e.dbURL)
	if err != nil {
		return err
	}
	if created {
		logf("created database %s", redact(e.dbURL))
	}
	if e.sch, err = openSchemas(ctx, e.dbURL); err != nil {
		return err
	}
	if err := e.sch.conn.QueryRow(ctx, "SHOW server_version").Scan(&e.pgVersion); err != nil {
		return err
	}

	prodSchema, prodURL, err := e.sch.create(ctx, "loadbench_product")
	if err != nil {
		return err
	}
	e.prodSchema = prodSchema
	logf("setting up the product in schema %s", prodSchema)
	if e.prod, err = setupProduct(ctx, prodURL, &e.prodStmts); err != nil {
		return err
	}
	e.putBody = modelstest.TransactionBody(e.prod.doc, 1, 25)
	if e.prodTxIDs, err = createTransactions(ctx, e.prod.store, e.prod.actor, e.putBody, o.c); err != nil {
		return err
	}

	baseSchema, baseURL, err := e.sch.create(ctx, "loadbench_baseline")
	if err != nil {
		return err
	}
	e.baseSchema = baseSchema
	logf("setting up the baselines in schema %s", baseSchema)
	if e.pool, e.baseTxIDs, err = setupBaseline(ctx, e.sch, prodSchema, baseSchema, baseURL, e.prod, e.putBody, o.c, poolSize, &e.baseStmts); err != nil {
		return err
	}
	return e.serve(o)
}

// serve starts the product's real router and the baselines' mux on
// loopback, and the client of o.c workers.
func (e *benchEnv) serve(o options) error {
	router, err := e.prod.router()
	if err != nil {
		return err
	}
	e.prodSrv = httptest.NewServer(router)
	same := sameWork{pool: e.pool, store: e.prod.store}
	mux := http.NewServeMux()
	mux.Handle("PUT /api/v1/transactions/{id}", &replaceBaseline{same})
	mux.Handle("POST /api/v1/markup-rooms", &roomBaseline{same})
	e.baseSrv = httptest.NewServer(mux)
	e.client = newClient(o.c)
	return nil
}

// close undoes setup in reverse, as far as it went, and drops the schemas.
func (e *benchEnv) close(logf func(string, ...any)) error {
	if e.client != nil {
		e.client.CloseIdleConnections()
	}
	if e.baseSrv != nil {
		e.baseSrv.Close()
	}
	if e.prodSrv != nil {
		e.prodSrv.Close()
	}
	if e.pool != nil {
		e.pool.Close()
	}
	if e.prod != nil {
		e.prod.close()
	}
	if e.sch == nil {
		return nil
	}
	names := strings.Join(e.sch.created, ", ")
	if err := e.sch.dropAll(); err != nil {
		return err
	}
	if names != "" {
		logf("dropped schemas %s", names)
	}
	return nil
}

// loadRuns are scenarios A (PUT of a transaction) and B (POST of a room),
// each against the product and its baseline, in that order; rBody is B's body.
func (e *benchEnv) loadRuns(rBody []byte) []*loadRun {
	put := func(base string, ids []string, token string) request {
		return func(ctx context.Context, w int) (*http.Request, error) {
			return jsonRequest(ctx, http.MethodPut, base+"/api/v1/transactions/"+ids[w%len(ids)], token, e.putBody)
		}
	}
	postRoom := func(base, token string, body []byte) request {
		return func(ctx context.Context, _ int) (*http.Request, error) {
			return jsonRequest(ctx, http.MethodPost, base+"/api/v1/markup-rooms", token, body)
		}
	}
	return []*loadRun{
		{scenario: "A  PUT /api/v1/transactions/{id}", server: "product: real router + store", file: "A-product", req: put(e.prodSrv.URL, e.prodTxIDs, e.prod.token), stmts: &e.prodStmts},
		{scenario: "A  PUT /api/v1/transactions/{id}", server: "same-work baseline: net/http + pgx", file: "A-baseline", req: put(e.baseSrv.URL, e.baseTxIDs, e.prod.token), stmts: &e.baseStmts},
		{scenario: "B  POST /api/v1/markup-rooms", server: "product: real router + store", file: "B-product", req: postRoom(e.prodSrv.URL, e.prod.token, rBody), stmts: &e.prodStmts},
		{scenario: "B  POST /api/v1/markup-rooms", server: "same-work baseline: net/http + pgx", file: "B-baseline", req: postRoom(e.baseSrv.URL, e.prod.token, rBody), stmts: &e.baseStmts},
	}
}
