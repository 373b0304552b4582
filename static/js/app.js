// Markup Room — progressive enhancement for server-rendered pages.
//
// Loaded with `defer` after htmx; the Content-Security-Policy forbids inline
// script and inline event handlers, so all behaviour is wired here through
// data attributes, with listeners delegated from `document` so content that
// htmx swaps in later works too. Every page stays usable without this file.
//
//   <button data-dialog-open="confirm-delete">…</button>   opens <dialog id="confirm-delete">
//   <button data-dialog-close>…</button>                    closes the enclosing <dialog>
//   <button class="alert__close" data-dismiss>…</button>    removes the enclosing .alert / [data-dismissible]
//   <details class="dropdown">…</details>                    closes on outside click and Escape
//   <form data-confirm="Remove Ann?">…</form>                asks before submitting, in [data-confirm-dialog]
//     (data-confirm-note: the line under the question; data-confirm-action: the button's words)
//   <dialog data-open-on-load>…</dialog>                     opens as a modal when the page loads
(function () {
  "use strict";

  // The page's messages (templates/i18n.go: <script id="i18n-messages">,
  // the catalog of its language, web/i18n/locales): msg(id) is one of them.
  var catalog = {};
  try {
    catalog = JSON.parse(document.getElementById("i18n-messages").textContent).messages || {};
  } catch (e) {
    catalog = {};
  }
  function msg(id) {
    var m = catalog[id];
    return typeof m === "string" ? m : id;
  }

  // htmx settings that keep it inside the CSP. These run before htmx
  // initialises: deferred scripts execute before DOMContentLoaded, which is
  // when htmx reads its configuration and would inject its indicator <style>.
  if (window.htmx) {
    Object.assign(window.htmx.config, {
      includeIndicatorStyles: false, // the inline <style> would be blocked; app.css has .htmx-indicator
      allowEval: false, // no hx-on / js: / event-filter expressions: script-src has no 'unsafe-eval'
      allowScriptTags: false, // never run <script> found in swapped HTML
      selfRequestsOnly: true, // only talk to this origin
      historyCacheSize: 0, // keep no page snapshots (documents, participants) in sessionStorage
      refreshOnHistoryMiss: true, // back/forward reloads the page from the server instead
      // Never copy the old element's attributes onto its swapped-in twin: copying
      // "style" is an inline style the CSP blocks, and "class" would carry state
      // (a page marked as drawn) the new element does not have.
      attributesToSettle: [],
      // 4xx answers carry a problem body the page shows where the change was
      // made (they are the user's to fix, not page errors): never swapped,
      // and not logged to the console as htmx errors. 5xx still are.
      responseHandling: [
        { code: "204", swap: false },
        { code: "[23]..", swap: true },
        { code: "4..", swap: false, error: false },
        { code: "...", swap: false, error: true },
      ],
    });
  }

  document.addEventListener("click", function (event) {
    var target = event.target instanceof Element ? event.target : null;
    if (!target) return;
    closeDropdowns(target);

    var opener = target.closest("[data-dialog-open]");
    if (opener) {
      var dialog = document.getElementById(opener.getAttribute("data-dialog-open"));
      if (dialog instanceof HTMLDialogElement) {
        event.preventDefault();
        if (!dialog.open) dialog.showModal();
      }
      return;
    }

    var closer = target.closest("[data-dialog-close]");
    if (closer) {
      var open = closer.closest("dialog");
      if (open) {
        // A link that closes its dialog still goes where it points (e.g. "#palette-title").
        if (!closer.matches("a[href]")) event.preventDefault();
        open.close(closer.getAttribute("data-dialog-close") || "");
      }
      return;
    }

    // A click on a modal dialog's backdrop lands on the <dialog> itself.
    if (target instanceof HTMLDialogElement && target.open && target.hasAttribute("data-dialog-light-dismiss")) {
      var box = target.getBoundingClientRect();
      var inside =
        event.clientX >= box.left && event.clientX <= box.right && event.clientY >= box.top && event.clientY <= box.bottom;
      if (!inside) target.close("");
      return;
    }

    // <button data-copy="#id"> copies the text of #id to the clipboard;
    // <button data-copy-text="…"> copies its own value (a list's whole id).
    var copier = target.closest("[data-copy], [data-copy-text]");
    if (copier) {
      var source = copier.hasAttribute("data-copy") ? document.querySelector(copier.getAttribute("data-copy")) : null;
      var text = source ? source.textContent.trim() : copier.getAttribute("data-copy-text");
      if (text && navigator.clipboard) {
        navigator.clipboard.writeText(text).then(function () {
          copier.textContent = msg("app.copy.done");
        });
      }
      return;
    }

    var dismiss = target.closest("[data-dismiss]");
    if (dismiss) {
      var dismissible = dismiss.closest("[data-dismissible], .alert");
      if (dismissible) dismissible.remove();
    }
  });

  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    var open = document.querySelector("details.dropdown[open]");
    if (open) {
      open.removeAttribute("open");
      var summary = open.querySelector("summary");
      if (summary) summary.focus();
    }
  });

  // Every confirmation is the page's own dialog ([data-confirm-dialog], never
  // window.confirm): the question as its title, data-confirm-note under it,
  // Cancel (focused first, and Escape) and the action (data-confirm-action,
  // else the control's own words). Focus stays in it while it is open and
  // goes back where it was when it closes.
  var confirmDialog = null;
  function buildConfirmDialog() {
    var d = document.createElement("dialog");
    d.className = "dialog confirm-dialog";
    d.setAttribute("data-confirm-dialog", "");
    d.setAttribute("role", "alertdialog");
    d.setAttribute("aria-labelledby", "confirm-dialog-title");
    d.setAttribute("aria-describedby", "confirm-dialog-note");
    d.innerHTML =
      '<div class="dialog__header"><h2 class="dialog__title" id="confirm-dialog-title"></h2></div>' +
      '<div class="dialog__body"><p id="confirm-dialog-note" data-confirm-note></p></div>' +
      '<div class="dialog__footer"><button type="button" class="btn btn--secondary" data-confirm-cancel></button>' +
      '<button type="button" class="btn btn--danger" data-confirm-ok></button></div>';
    d.querySelector("[data-confirm-cancel]").textContent = msg("app.confirm.cancel");
    document.body.appendChild(d);
    d.addEventListener("keydown", function (event) {
      if (event.key !== "Tab") return;
      var buttons = d.querySelectorAll("button");
      var first = buttons[0];
      var last = buttons[buttons.length - 1];
      if (event.shiftKey ? document.activeElement === first : document.activeElement === last) {
        event.preventDefault();
        (event.shiftKey ? last : first).focus();
      }
    });
    d.addEventListener("click", function (event) {
      var b = event.target instanceof Element ? event.target.closest("button") : null;
      if (b) d.close(b.hasAttribute("data-confirm-ok") ? "ok" : "");
    });
    return d;
  }
  function askConfirm(source, question, onYes, onNo) {
    if (!confirmDialog || !confirmDialog.isConnected) confirmDialog = buildConfirmDialog();
    var d = confirmDialog;
    var words = (source.getAttribute("data-confirm-action") || source.textContent || "").trim().replace(/…$/, "");
    d.querySelector(".dialog__title").textContent = question;
    var note = source.getAttribute("data-confirm-note") || "";
    d.querySelector("[data-confirm-note]").textContent = note;
    d.querySelector(".dialog__body").hidden = !note;
    d.querySelector("[data-confirm-ok]").textContent = words && words.length <= 40 ? words : msg("app.confirm.ok");
    var back = document.activeElement;
    d.returnValue = "";
    d.addEventListener(
      "close",
      function () {
        if (back && back.isConnected && typeof back.focus === "function") back.focus();
        if (d.returnValue === "ok") onYes();
        else if (onNo) onNo();
      },
      { once: true }
    );
    d.showModal();
    d.querySelector("[data-confirm-cancel]").focus();
  }

  // <form data-confirm="Question?"> asks before it is submitted (a form htmx
  // sends asks through htmx:confirm below).
  var confirmedForm = null;
  document.addEventListener("submit", function (event) {
    var form = event.target instanceof HTMLFormElement ? event.target : null;
    var question = form && form.getAttribute("data-confirm");
    if (!question || event.defaultPrevented) return;
    if (confirmedForm === form) {
      confirmedForm = null;
      return;
    }
    event.preventDefault();
    var submitter = event.submitter || null;
    askConfirm(submitter || form, question, function () {
      confirmedForm = form;
      form.requestSubmit(submitter);
    });
  });

  // An htmx request from an element with data-confirm (or hx-confirm) asks
  // first; a switch with data-confirm-off asks only when it is turned off,
  // and Cancel turns it on again.
  document.addEventListener("htmx:confirm", function (event) {
    var elt = event.detail && event.detail.elt;
    var own = elt instanceof Element && elt.getAttribute("data-confirm");
    var turnedOff = elt instanceof HTMLInputElement && elt.type === "checkbox" && !elt.checked;
    var offQuestion = turnedOff && elt.getAttribute("data-confirm-off");
    var question = own || offQuestion || event.detail.question;
    if (!question) return;
    event.preventDefault();
    askConfirm(
      elt,
      question,
      function () {
        event.detail.issueRequest(true);
      },
      offQuestion
        ? function () {
            elt.checked = true;
          }
        : null
    );
  });

  // <select data-control="authentication-type"> shows only the fields of the
  // chosen type: [data-auth-show="<type>"] in the same form.
  function syncAuthFields(select) {
    var form = select.form;
    if (!form) return;
    form.querySelectorAll("[data-auth-show]").forEach(function (el) {
      el.hidden = el.getAttribute("data-auth-show") !== select.value;
    });
  }
  document.addEventListener("change", function (event) {
    var t = event.target;
    if (t instanceof HTMLSelectElement && t.matches('[data-control="authentication-type"]')) syncAuthFields(t);
    // The language menu switches at once: the same page again with ?lang=
    // (its other parameters kept, an embedded room's session among them).
    if (t instanceof HTMLSelectElement && t.matches("[data-language-menu]")) {
      var url = new URL(window.location.href);
      url.searchParams.set("lang", t.value);
      window.location.assign(url.toString());
    }
  });
  function syncAllAuthFields() {
    document.querySelectorAll('select[data-control="authentication-type"]').forEach(syncAuthFields);
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", syncAllAuthFields);
  } else {
    syncAllAuthFields();
  }
  document.addEventListener("htmx:afterSettle", syncAllAuthFields);

  // <dialog data-open-on-load> (a form sent back with errors) opens as a modal
  // when the page loads or is swapped in, with focus on its first field in error.
  function openDialogsOnLoad() {
    document.querySelectorAll("dialog[data-open-on-load]").forEach(function (dialog) {
      if (dialog instanceof HTMLDialogElement && !dialog.open) {
        // Once: closed, it stays closed when something else is swapped in later (the session checklist).
        dialog.removeAttribute("data-open-on-load");
        dialog.showModal();
        var invalid = dialog.querySelector('[aria-invalid="true"]');
        if (invalid) invalid.focus();
      }
    });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", openDialogsOnLoad);
  } else {
    openDialogsOnLoad();
  }
  document.addEventListener("htmx:afterSettle", openDialogsOnLoad);

  // <form data-swap-errors hx-post=…> (the participant dialog) is sent by htmx,
  // so the address bar keeps the page's address; its refusal (422: the page
  // again with the dialog open and its fields marked) is swapped in like a success.
  document.addEventListener("htmx:beforeSwap", function (event) {
    // detail.elt is the target (#main); the element that sent the request is requestConfig.elt.
    var elt = event.detail.requestConfig && event.detail.requestConfig.elt;
    if (event.detail.xhr && event.detail.xhr.status === 422 && elt instanceof Element && elt.closest("[data-swap-errors]")) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });

  // closeDropdowns closes every open dropdown that does not contain the clicked element.
  function closeDropdowns(clicked) {
    document.querySelectorAll("details.dropdown[open]").forEach(function (details) {
      if (!details.contains(clicked) || clicked.closest(".dropdown__item")) {
        details.removeAttribute("open");
      }
    });
  }
})();
