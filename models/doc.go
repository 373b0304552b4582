// Package models holds Markup Room's domain: organizations, users, API
// tokens, uploaded documents, e-signature transactions and Markup Rooms,
// their validation rules and their storage.
//
// The package knows nothing about HTTP: it never imports Gin, templ or
// net/http handlers. Store methods take a context first and translate
// storage errors into ErrNotFound, ErrConflict and *ValidationError so that
// callers can map them to responses in one place.
package models
