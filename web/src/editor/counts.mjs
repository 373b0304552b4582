// Keeps the tag counts beside documents, pages and participants in step with
// the tags on the pages, as saves add, swap and remove them.

import { t } from "./i18n.mjs";

const plural = (n) => t("editor.count.tags", { count: n });

/** The question asked before a participant is removed (templates.RemoveParticipantQuestion says the same). */
export function removeQuestion(name, tags) {
  if (tags === 0) return t("editor.participant.remove_question_no_tags", { name });
  return t("editor.participant.remove_question", { name, tags: plural(tags) });
}

export function watchCounts(root, signal) {
  let queued = false;
  const refresh = () => {
    queued = false;
    const count = (map, key) => map.set(key, (map.get(key) || 0) + 1);
    const docs = new Map();
    const pages = new Map();
    const signers = new Map();
    for (const tag of root.querySelectorAll(".tag[data-tag-id]")) {
      const page = tag.closest(".viewer-page");
      const doc = page.closest(".viewer-doc").dataset.docPosition;
      count(docs, doc);
      count(pages, `${doc}/${page.dataset.page}`);
      count(signers, tag.dataset.signerId || "");
    }
    for (const el of document.querySelectorAll("[data-tag-count-doc]")) el.textContent = plural(docs.get(el.dataset.tagCountDoc) || 0);
    for (const el of document.querySelectorAll("[data-tag-count-page]")) {
      const n = pages.get(el.dataset.tagCountPage) || 0;
      el.textContent = n ? plural(n) : "";
    }
    for (const el of document.querySelectorAll("[data-tag-count-signer]")) el.textContent = plural(signers.get(el.dataset.tagCountSigner) || 0);
    // The question before a participant's removal counts their tags as they are now.
    for (const form of document.querySelectorAll("form[data-participant-remove]")) {
      form.dataset.confirm = removeQuestion(form.dataset.participantName || "", signers.get(form.dataset.participantRemove) || 0);
    }
  };
  const observer = new MutationObserver(() => {
    if (!queued) {
      queued = true;
      requestAnimationFrame(refresh);
    }
  });
  observer.observe(root, { childList: true, subtree: true });
  signal?.addEventListener("abort", () => observer.disconnect());
}
