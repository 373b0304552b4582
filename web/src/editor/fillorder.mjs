// The order a participant fills their fields in, as the preview's guided walk
// (preview.mjs) goes through them: participants in signing order when the
// transaction has one, then document order, then page, then top to bottom
// and, along a row, left to right — on the page as it is shown (crop box and
// /Rotate applied: the caller passes each field's rectangle as the page shows
// it, top-left origin, y downwards). Tags whose tops are within half the
// lower tag's height of each other count as one row, so a date set a point
// higher than the signature beside it still comes after it. Pure: node-tested
// (web/test/fillorder.test.mjs).

/**
 * fillOrder sorts fields ({id, signer, doc, page, rect: {left, top, width,
 * height}}) into filling order; signers, when given (the signing order: a
 * list of signer ids), orders participants first, anyone not in it last.
 * Returns a new array.
 */
export function fillOrder(fields, { signers = null } = {}) {
  const rank = (f) => {
    if (!signers) return 0;
    const i = signers.indexOf(f.signer);
    return i < 0 ? signers.length : i;
  };
  const byPage = new Map(); // "rank doc page" → its fields
  for (const f of fields) {
    const key = [rank(f), f.doc, f.page].join(" ");
    if (!byPage.has(key)) byPage.set(key, []);
    byPage.get(key).push(f);
  }
  const keys = [...byPage.keys()].sort((a, b) => {
    const x = a.split(" ").map(Number);
    const y = b.split(" ").map(Number);
    return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
  });
  return keys.flatMap((k) => readingOrder(byPage.get(k)));
}

/** readingOrder orders one page's fields in rows, top to bottom, each row left to right. */
export function readingOrder(fields) {
  const byTop = [...fields].sort((a, b) => a.rect.top - b.rect.top || a.rect.left - b.rect.left || cmp(a.id, b.id));
  const rows = [];
  for (const f of byTop) {
    const row = rows[rows.length - 1];
    const head = row?.[0];
    if (head && f.rect.top - head.rect.top < Math.min(head.rect.height, f.rect.height) / 2) row.push(f);
    else rows.push([f]);
  }
  return rows.flatMap((row) => row.sort((a, b) => a.rect.left - b.rect.left || cmp(a.id, b.id)));
}

const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

/** walkOf is one signer's fields in filling order. */
export function walkOf(fields, signer) {
  return fillOrder(fields.filter((f) => f.signer === signer));
}

/** step moves index i by delta along a walk of n fields, staying inside it (-1 for an empty walk). */
export function step(i, delta, n) {
  if (n <= 0) return -1;
  return Math.min(n - 1, Math.max(0, i + delta));
}
