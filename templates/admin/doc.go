// Package admin holds the admin console's pages, one templ file per page
// (login, transactions, transaction, rooms, the new room form and its
// created page, activity, organizations, organization, outbox) and their view models (views.go). They render inside
// templates.Layout and, like every template, never query anything: the
// console handlers build the views. Generated with the rest of the templates
// (`go generate ./templates`).
package admin
