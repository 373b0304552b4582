package models

import (
	"slices"

	"gorm.io/gorm"
)

// adminKeyset is one page of a console table, newest first, paged by the
// time-ordered id in column (keyset pagination): after (the next page) or
// before (the previous one) are the ids at the edges of the page shown.
type adminKeyset[T any] struct {
	Rows             []T
	HasNext, HasPrev bool
	FirstID, LastID  string
}

// pageAdminRows runs q for the page of AdminPageSize rows after or before
// the given ids (at most one set); id reads a row's id.
func pageAdminRows[T any](q *gorm.DB, column, after, before string, id func(*T) string) (*adminKeyset[T], error) {
	backwards := before != "" && after == ""
	switch {
	case backwards:
		q = q.Where(column+" > ?", before).Order(column + " ASC")
	case after != "":
		q = q.Where(column+" < ?", after).Order(column + " DESC")
	default:
		q = q.Order(column + " DESC")
	}
	var rows []T
	if err := q.Limit(AdminPageSize + 1).Scan(&rows).Error; err != nil {
		return nil, mapDBError(err)
	}
	more := len(rows) > AdminPageSize
	if more {
		rows = rows[:AdminPageSize]
	}
	if backwards {
		slices.Reverse(rows)
	}
	page := &adminKeyset[T]{Rows: rows}
	if len(rows) > 0 {
		page.FirstID, page.LastID = id(&rows[0]), id(&rows[len(rows)-1])
	}
	if backwards {
		page.HasPrev, page.HasNext = more, true
	} else {
		page.HasNext, page.HasPrev = more, after != ""
	}
	return page, nil
}
