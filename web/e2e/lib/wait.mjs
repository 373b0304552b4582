// Assertions that wait for the page: a response the test awaited is not
// the page it reads (htmx swaps after the response, the editor redraws on
// the next frame), so a test that reads what a response changes asserts it
// again and again until it holds or the time is up.

/**
 * Runs check (an async function that asserts) until it passes; after
 * timeout ms it throws check's last error, so the failure reads as the
 * assertion that never held. Resolves with check's value.
 */
export async function eventually(check, { timeout = 10000, interval = 50 } = {}) {
  const until = Date.now() + timeout;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > until) throw err;
    }
    await new Promise((r) => setTimeout(r, interval));
  }
}
