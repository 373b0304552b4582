package handlers

// publicHandler serves what needs no sign-in: the home page, health and
// readiness, the problem types' pages and the OpenAPI document.
type publicHandler struct {
	*site
	ready   Readiness
	openAPI []byte
}
