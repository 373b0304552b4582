package handlers

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/handlers/export"
	"github.com/markuproom/markuproom/models"
)

// pagesThatFail serves n pages of two rows each, then fails with err.
func pagesThatFail(n int, err error) exportPages {
	served := 0
	return func(context.Context) ([][]any, error) {
		if served == n {
			return nil, err
		}
		served++
		return [][]any{{"a", served}, {"=b", served}}, nil
	}
}

// exportServer serves streamCSV over next behind the server's panic recovery.
func exportServer(t *testing.T, next exportPages) *httptest.Server {
	t.Helper()
	gin.SetMode(gin.TestMode)
	r := gin.New()
	r.Use(recoverPanics())
	r.GET("/x.csv", wrap(func(c *gin.Context) error {
		return streamCSV(c, "x.csv", []export.Column{{Title: "Name"}, {Title: "N"}}, next)
	}))
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	return srv
}

// A failure before the first byte is an ordinary error answer; after it,
// the connection is cut, so the download fails instead of ending short.
func TestStreamCSVFailsVisibly(t *testing.T) {
	t.Parallel()
	failure := errors.New("database gone")
	srv := exportServer(t, pagesThatFail(0, models.Invalid("query:q", "too_long", "problem.list.search_too_long", "max", 200)))
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/x.csv", nil)
	req.Header.Set("Accept", "application/json") // a problem body (the HTML error page needs the whole site)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = res.Body.Close()
	if res.StatusCode != http.StatusBadRequest || res.Header.Get("Content-Disposition") != "" {
		t.Fatalf("a refused first page answered %d, %q", res.StatusCode, res.Header.Get("Content-Disposition"))
	}

	srv = exportServer(t, pagesThatFail(3, failure))
	res, err = http.Get(srv.URL + "/x.csv")
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(res.Body)
	_ = res.Body.Close()
	if res.StatusCode != http.StatusOK || err == nil {
		t.Fatalf("a failure after the first page: status %d, read error %v (want a broken download)", res.StatusCode, err)
	}
	if !strings.HasPrefix(string(body), "Name,N\r\na,1\r\n'=b,1\r\n") {
		t.Errorf("the pages before the failure: %q", body)
	}

	srv = exportServer(t, pagesThatFail(2, nil))
	res, err = http.Get(srv.URL + "/x.csv")
	if err != nil {
		t.Fatal(err)
	}
	body, err = io.ReadAll(res.Body)
	_ = res.Body.Close()
	if err != nil || string(body) != "Name,N\r\na,1\r\n'=b,1\r\na,2\r\n'=b,2\r\n" {
		t.Errorf("a whole export: %q, %v", body, err)
	}
}
