package handlers

import (
	"strings"

	"github.com/gin-gonic/gin"
)

// languageVary is the Vary of a response in the request's language: the
// headers localize chooses it by (Accept-Language, the language cookie, and
// the header an embedded room sends instead of the cookie). localize adds
// it to every response, so no page that varies by language can be cached
// for another (docs/decisions.md, "Responses that vary by language");
// sameInEveryLanguage and inEnglish take it back where the answer is the
// same in every language.
const languageVary = "Accept-Language, Cookie, " + langHeader

// addVary adds a header name to the response's Vary, keeping what is there.
func addVary(c *gin.Context, field string) {
	c.Writer.Header().Add("Vary", field)
}

// sameInEveryLanguage precedes the handler of a route whose answers do not
// depend on the language (static assets, health, metrics, the OpenAPI
// document): a cache may keep one copy for everyone.
func sameInEveryLanguage(c *gin.Context) {
	dropLanguageVary(c)
	c.Next()
}

// dropLanguageVary takes languageVary out of the response's Vary.
func dropLanguageVary(c *gin.Context) {
	h := c.Writer.Header()
	var kept []string
	for _, v := range h.Values("Vary") {
		if strings.TrimSpace(v) != languageVary {
			kept = append(kept, v)
		}
	}
	h.Del("Vary")
	for _, v := range kept {
		h.Add("Vary", v)
	}
}
