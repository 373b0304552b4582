package models

import (
	"context"
	"errors"
	"sync"

	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/review"
)

// TransactionReview is the pre-send check of one transaction
// (docs/review.md): its findings, blocking ones first.
type TransactionReview struct {
	// Transaction is the transaction checked, with its children (the
	// names and titles the findings are worded with).
	Transaction *Transaction
	Findings    []review.Finding
}

// Blocked tells whether a finding stops the e-signature session.
func (r *TransactionReview) Blocked() bool { return review.Blocked(r.Findings) }

// ReviewTransaction runs the pre-send check on one of the organization's
// transactions (ErrNotFound for another organization's).
func (s *Store) ReviewTransaction(ctx context.Context, orgID int64, id string) (*TransactionReview, error) {
	t, err := s.GetTransaction(ctx, orgID, id)
	if err != nil {
		return nil, err
	}
	return s.reviewOf(ctx, t, readWords)
}

// ReviewReplaced is the pre-send check of a transaction just replaced
// (operation A's answer carries it as review): from the documents the
// replace read (no query), with printed words only where they are kept in
// memory already, so the write path starts no PDF work (docs/review.md).
func (s *Store) ReviewReplaced(ctx context.Context, t *Transaction) (*TransactionReview, error) {
	return s.reviewOf(ctx, t, cachedWords)
}

// wordsMode says where a review's printed words come from.
type wordsMode int

const (
	// noWords: none; enough for the blocking findings (no text finding).
	noWords wordsMode = iota
	// cachedWords: those read before and kept in memory; a document not
	// read yet gets no text finding.
	cachedWords
	// readWords: read by a PDF worker when not kept yet.
	readWords
)

// reviewOf checks t, read with its children: each document's page boxes
// come from its upload, its printed words (as words says) from a PDF
// worker (kept in memory by content, see printedWords). Without words the
// check makes no text finding, a warning: enough to know what blocks.
func (s *Store) reviewOf(ctx context.Context, t *Transaction, words wordsMode) (*TransactionReview, error) {
	in := review.Transaction{
		Documents:    make([]review.Document, len(t.Documents)),
		Participants: make([]review.Participant, len(t.Participants)),
	}
	for i, p := range t.Participants {
		in.Participants[i] = review.Participant{ID: p.ParticipantID, Email: p.Email}
	}
	stored, err := s.reviewDocuments(ctx, t)
	if err != nil {
		return nil, err
	}
	for i, td := range t.Documents {
		d := review.Document{Title: td.Title, Tags: make([]review.Tag, len(td.Tags))}
		for j, tag := range td.Tags {
			d.Tags[j] = review.Tag{ID: tag.TagID, Type: tag.Type, Signer: tag.SignerID, Page: tag.Page,
				Box: review.Box{X: tag.X, Y: tag.Y, Width: tag.Width, Height: tag.Height}}
			if tag.NeedsLook != nil {
				d.Tags[j].NeedsLook = *tag.NeedsLook
			}
		}
		pages, err := s.reviewPages(ctx, stored[td.DocumentID], words)
		if err != nil {
			return nil, err
		}
		d.Pages = pages
		in.Documents[i] = d
	}
	return &TransactionReview{Transaction: t, Findings: review.Check(in)}, nil
}

// reviewDocuments reads, in one query, the stored documents t names, by
// id (a document named by a location this service did not store is not
// among them); a transaction just built by a replace has them already.
func (s *Store) reviewDocuments(ctx context.Context, t *Transaction) (map[string]*Document, error) {
	if t.storedDocs != nil {
		return t.storedDocs, nil
	}
	ids := make([]string, 0, len(t.Documents))
	for _, td := range t.Documents {
		if td.DocumentID != "" {
			ids = append(ids, td.DocumentID)
		}
	}
	out := make(map[string]*Document, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	var docs []Document
	if err := s.db.WithContext(ctx).Where("organization_id = ? AND id IN ?", t.OrganizationID, ids).Find(&docs).Error; err != nil {
		return nil, mapDBError(err)
	}
	for i := range docs {
		out[docs[i].ID] = &docs[i]
	}
	return out, nil
}

// reviewPages are the visible boxes and printed words of a stored
// document's pages (the words as mode says); nil for none (the page checks
// are then skipped).
func (s *Store) reviewPages(ctx context.Context, d *Document, mode wordsMode) ([]review.Page, error) {
	if d == nil {
		return nil, nil
	}
	var words [][]pdf.Box
	switch mode {
	case cachedWords:
		words, _ = s.words.get(d.SHA256)
	case readWords:
		var err error
		if words, err = s.printedWords(ctx, d); err != nil {
			return nil, err
		}
	}
	out := make([]review.Page, len(d.Pages))
	for i, p := range d.Pages {
		out[i].Box = reviewBox(p.CropBox)
		if i < len(words) {
			out[i].Words = make([]review.Box, len(words[i]))
			for j, w := range words[i] {
				out[i].Words[j] = reviewBox(w)
			}
		}
	}
	return out, nil
}

func reviewBox(b pdf.Box) review.Box {
	return review.Box{X: b.LLX, Y: b.LLY, Width: b.URX - b.LLX, Height: b.URY - b.LLY}
}

// printedWords are the boxes of the words printed on d's pages, read by a
// PDF worker once per content and kept (a document's content never
// changes: a page edit stores a new one). A document the worker cannot
// read has none: the check then makes no text finding, and says nothing
// false.
func (s *Store) printedWords(ctx context.Context, d *Document) ([][]pdf.Box, error) {
	if w, ok := s.words.get(d.SHA256); ok {
		return w, nil
	}
	var words [][]pdf.Box
	err := s.withStoredFile(ctx, d, func(path string) error {
		res, err := s.pdf.printedWords(ctx, path)
		words = res.Pages
		return err
	})
	var busy *PDFBusyError
	switch {
	case errors.As(err, &busy), errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded), errors.Is(err, ErrUnavailable):
		return nil, err
	case err != nil:
		s.log.WarnContext(ctx, "review: printed words not read", "document", d.ID, "error", err)
		words = nil
	}
	s.words.put(d.SHA256, words)
	return words, nil
}

// wordCache keeps the printed words of the documents checked last, by
// content hash, at most max of them.
type wordCache struct {
	mu    sync.Mutex
	max   int
	order []string
	pages map[string][][]pdf.Box
}

// maxCachedWordDocuments bounds wordCache: a few hundred kilobytes each at
// worst (pdfjob.MaxWords boxes).
const maxCachedWordDocuments = 256

func newWordCache(max int) *wordCache {
	return &wordCache{max: max, pages: map[string][][]pdf.Box{}}
}

func (c *wordCache) get(key string) ([][]pdf.Box, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	w, ok := c.pages[key]
	return w, ok
}

func (c *wordCache) put(key string, w [][]pdf.Box) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.pages[key]; ok {
		return
	}
	if len(c.order) >= c.max {
		delete(c.pages, c.order[0])
		c.order = c.order[1:]
	}
	c.order = append(c.order, key)
	c.pages[key] = w
}
