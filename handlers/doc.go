// Package handlers is Markup Room's HTTP layer: the Gin router, its
// middleware, the JSON API under /api/v1, the MCP server at /mcp (mcp.go:
// the API's operations as tools for AI agents), and the server-rendered
// pages.
//
// Handlers are thin: they bind the request, call the domain in package
// models, and render. Every error goes through one mapper (problem.go) that
// writes RFC 9457 problem details for API routes (and, inside an isError
// tool result, for MCP tools) and an HTML error page for browser routes.
package handlers
