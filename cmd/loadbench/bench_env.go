package main

import (
	"context"
	"fmt"
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
	// prodStmts, baseStmts and rawStmts count each side's statements.
	prodStmts, baseStmts, rawStmts roundTrips
	prod                           *productEnv
	// putBody is scenario A's body; prodTxIDs, baseTxIDs and rawTxIDs the
	// transactions it replaces, one per worker, on each side.
	putBody                        []byte
	prodTxIDs, baseTxIDs, rawTxIDs []string
	pool, rawPool                  *pgxpool.Pool
	baseURL                        string
	prodSrv, baseSrv               *httptest.Server
	client                         *http.Client
}

// Scenario A's body: 2 documents × 25 tags (issue 38).
const (
	putDocs        = 2
	putTagsPerDoc  = 25
	putTagsPerBody = putDocs * putTagsPerDoc
)

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
	e.putBody = modelstest.TransactionBody(e.prod.doc, putDocs, putTagsPerDoc)
	if e.prodTxIDs, err = createTransactions(ctx, e.prod.store, e.prod.actor, e.putBody, o.c); err != nil {
		return err
	}

	baseSchema, baseURL, err := e.sch.create(ctx, "loadbench_baseline")
	if err != nil {
		return err
	}
	e.baseSchema, e.baseURL = baseSchema, baseURL
	logf("setting up the baselines in schema %s", baseSchema)
	// The same-work and raw-pgx baselines share the schema, each replacing
	// transactions of its own through a pool of its own.
	var ids []string
	if e.pool, ids, err = setupBaseline(ctx, e.sch, prodSchema, baseSchema, baseURL, e.prod, e.putBody, 2*o.c, poolSize, &e.baseStmts); err != nil {
		return err
	}
	e.baseTxIDs, e.rawTxIDs = ids[:o.c], ids[o.c:]
	if e.rawPool, err = openPool(ctx, baseURL, poolSize, &e.rawStmts); err != nil {
		return err
	}
	return e.serve(ctx, o)
}

// serve starts the product's real router and the baselines' mux on
// loopback, and the client of o.c workers.
func (e *benchEnv) serve(ctx context.Context, o options) error {
	router, err := e.prod.router()
	if err != nil {
		return err
	}
	e.prodSrv = httptest.NewServer(router)
	same := sameWork{pool: e.pool, store: e.prod.store}
	mux := http.NewServeMux()
	mux.Handle("PUT /api/v1/transactions/{id}", &replaceBaseline{same})
	mux.Handle("POST /api/v1/markup-rooms", &roomBaseline{same})
	raw, err := newRawReplace(ctx, same, e.prod, e.putBody, e.rawTxIDs)
	if err != nil {
		return fmt.Errorf("raw-pgx baseline: %w", err)
	}
	raw.pool = e.rawPool
	mux.Handle("PUT /raw/transactions/{id}", raw)
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
	if e.rawPool != nil {
		e.rawPool.Close()
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

// loadGroups are the scenarios' groups, each measured in alternating slices:
// A (PUT of a transaction) against the product, the same-work baseline and
// the raw-pgx baseline; B (POST of a room) against the product and its
// same-work baseline (left out with -only-a); rBody is B's body.
type loadGroups struct {
	aProd, aSame, aRaw, bProd, bSame *loadRun
}

// groups lists the groups to measure, in order.
func (g *loadGroups) groups() [][]*loadRun {
	out := [][]*loadRun{{g.aProd, g.aSame, g.aRaw}}
	if g.bProd != nil {
		out = append(out, []*loadRun{g.bProd, g.bSame})
	}
	return out
}

// all lists every run, in the order of the report.
func (g *loadGroups) all() []*loadRun {
	var out []*loadRun
	for _, grp := range g.groups() {
		out = append(out, grp...)
	}
	return out
}

func (e *benchEnv) loadRuns(rBody []byte, onlyA bool) *loadGroups {
	put := func(url string, ids []string, token string) request {
		return func(ctx context.Context, w int) (*http.Request, error) {
			return jsonRequest(ctx, http.MethodPut, url+ids[w%len(ids)], token, e.putBody)
		}
	}
	postRoom := func(base, token string, body []byte) request {
		return func(ctx context.Context, _ int) (*http.Request, error) {
			return jsonRequest(ctx, http.MethodPost, base+"/api/v1/markup-rooms", token, body)
		}
	}
	const a, b = "A  PUT /api/v1/transactions/{id}", "B  POST /api/v1/markup-rooms"
	g := &loadGroups{
		aProd: &loadRun{scenario: a, server: "product: real router + store", file: "A-product", req: put(e.prodSrv.URL+"/api/v1/transactions/", e.prodTxIDs, e.prod.token), stmts: &e.prodStmts},
		aSame: &loadRun{scenario: a, server: "same-work baseline: net/http + pgx", file: "A-baseline", req: put(e.baseSrv.URL+"/api/v1/transactions/", e.baseTxIDs, e.prod.token), stmts: &e.baseStmts},
		aRaw:  &loadRun{scenario: a, server: "raw pgx: the same rows, nothing else", file: "A-raw", req: put(e.baseSrv.URL+"/raw/transactions/", e.rawTxIDs, ""), stmts: &e.rawStmts},
	}
	if !onlyA {
		g.bProd = &loadRun{scenario: b, server: "product: real router + store", file: "B-product", req: postRoom(e.prodSrv.URL, e.prod.token, rBody), stmts: &e.prodStmts}
		g.bSame = &loadRun{scenario: b, server: "same-work baseline: net/http + pgx", file: "B-baseline", req: postRoom(e.baseSrv.URL, e.prod.token, rBody), stmts: &e.baseStmts}
	}
	return g
}
