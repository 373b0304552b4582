package handlers

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/web/i18n"
)

// Language choice (docs/i18n.md): ?lang= (the language menu) sets it and a
// browser-session cookie remembers it; else a room's own locale (operation
// B's "locale"); else Accept-Language; else English. The API always answers
// in English: its words are for programs, which switch on codes.
const (
	langQuery  = "lang"
	langCookie = "markuproom_lang"
	// langHeader carries the page's chosen language on an embedded room's
	// requests, where the cookie is not sent (docs/decisions.md, "Embedded rooms").
	langHeader = "X-Markup-Lang"
)

// ctxLangChosen marks a request whose language was chosen (?lang=, the
// cookie or the header), which a room's own locale does not override.
const ctxLangChosen = "langChosen"

// localize puts the request's Localizer in its context and says in Vary
// what chose it.
func (s *site) localize() gin.HandlerFunc {
	return func(c *gin.Context) {
		lang, chosen := s.chosenLanguage(c)
		if !chosen {
			if l, ok := i18n.Match(c.GetHeader("Accept-Language")); ok {
				lang = l
			}
		}
		c.Set(ctxLangChosen, chosen)
		setLanguage(c, lang)
		addVary(c, languageVary)
		c.Next()
	}
}

// chosenLanguage reads ?lang=, the header and the cookie, in that order; a
// ?lang= is remembered in the cookie.
func (s *site) chosenLanguage(c *gin.Context) (i18n.Language, bool) {
	if l, ok := s.language(c.Query(langQuery)); ok {
		http.SetCookie(c.Writer, &http.Cookie{Name: langCookie, Value: l.Tag, Path: "/",
			HttpOnly: true, Secure: s.secure(), SameSite: http.SameSiteLaxMode})
		return l, true
	}
	if l, ok := s.language(c.GetHeader(langHeader)); ok {
		return l, true
	}
	if ck, err := c.Request.Cookie(langCookie); err == nil {
		if l, ok := s.language(ck.Value); ok {
			return l, true
		}
	}
	return i18n.Fallback(), false
}

// language looks tag up among the languages this server offers (the
// pseudo-language only when Config.PseudoLocale is set).
func (s *site) language(tag string) (i18n.Language, bool) {
	if s.cfg.PseudoLocale && tag == i18n.Pseudo.Tag {
		return i18n.Pseudo, true
	}
	return i18n.Lookup(tag)
}

// useRoomLocale makes a room's own locale (operation B's "locale"; "" for
// none) the request's language, unless the visitor chose one (?lang=, the
// header or the cookie), which wins.
func useRoomLocale(c *gin.Context, locale string) {
	if c.GetBool(ctxLangChosen) {
		return
	}
	if l, ok := i18n.Lookup(locale); ok {
		setLanguage(c, l)
	}
}

// setLanguage makes lang the request's language.
func setLanguage(c *gin.Context, lang i18n.Language) {
	c.Request = c.Request.WithContext(i18n.With(c.Request.Context(), i18n.New(lang)))
	c.Header("Content-Language", lang.Tag)
}

// inEnglish makes the API's answers English whatever the request asks, so
// they do not vary by language.
func inEnglish(c *gin.Context) {
	setLanguage(c, i18n.Fallback())
	dropLanguageVary(c)
	c.Next()
}

// englishForAPI is inEnglish for a request to the API's or MCP's addresses
// that no route answers (404, 405): the API's refusals are English there too.
func englishForAPI(c *gin.Context) {
	if isAPIPath(c.Request.URL.Path) {
		inEnglish(c)
		return
	}
	c.Next()
}

// secure tells whether the site is served over HTTPS (its cookies are Secure).
func (s *site) secure() bool {
	return len(s.cfg.BaseURL) >= 8 && s.cfg.BaseURL[:8] == "https://"
}
