// Markup Room embed: shows a Markup Room inside the caller's own page and
// hands the page the room's events. Load it from the Markup Room server
// (<script src="https://markuproom.example.com/static/embed.js"></script>),
// then:
//
//   const room = MarkupRoom.mount(document.getElementById("room"), {
//     url: roomUrl, // the url operation B answered (the room made with embed.origin)
//     onEvent: (e) => console.log(e.type, e.detail), // ready, changed, completed, error
//   });
//   room.destroy(); // removes the frame and stops listening
//
// Only messages from the room's own origin, with source "markuproom", reach
// onEvent. See the README, "Embedding a room".
(function (global) {
  "use strict";

  /** The origin of url (absolute, or relative to the page); throws on a URL that is not http(s). */
  function originOf(url) {
    var u = new URL(url, global.location.href);
    if (u.protocol !== "https:" && u.protocol !== "http:") throw new TypeError("MarkupRoom.mount: url must be an http(s) address");
    return u.origin;
  }

  /**
   * Creates the room's iframe in element, sized to fill it (and kept so as
   * the element changes size), and calls options.onEvent(data) for each
   * event the room posts. Returns {iframe, destroy()}.
   */
  function mount(element, options) {
    if (!element || typeof element.appendChild !== "function") throw new TypeError("MarkupRoom.mount: element must be a DOM element");
    var opts = options || {};
    if (!opts.url) throw new TypeError("MarkupRoom.mount: options.url is required");
    var origin = originOf(opts.url);
    var onEvent = typeof opts.onEvent === "function" ? opts.onEvent : function () {};

    var iframe = document.createElement("iframe");
    iframe.src = new URL(opts.url, global.location.href).href;
    iframe.title = opts.title || "Markup Room";
    iframe.setAttribute("allow", "clipboard-write");
    iframe.setAttribute("referrerpolicy", "no-referrer");
    iframe.style.border = "0";
    iframe.style.display = "block";
    iframe.style.width = "100%";
    iframe.style.height = "100%";
    iframe.dataset.markuproomFrame = "";

    function fit() {
      var box = element.getBoundingClientRect();
      iframe.style.width = Math.max(0, Math.floor(box.width)) + "px";
      iframe.style.height = Math.max(0, Math.floor(box.height)) + "px";
    }
    var observer = typeof ResizeObserver === "function" ? new ResizeObserver(fit) : null;

    function onMessage(event) {
      if (event.origin !== origin || event.source !== iframe.contentWindow) return;
      var data = event.data;
      if (!data || typeof data !== "object" || data.source !== "markuproom" || typeof data.type !== "string") return;
      onEvent(data);
    }

    global.addEventListener("message", onMessage);
    element.appendChild(iframe);
    if (observer) observer.observe(element);
    else global.addEventListener("resize", fit);
    fit();

    return {
      iframe: iframe,
      destroy: function () {
        global.removeEventListener("message", onMessage);
        if (observer) observer.disconnect();
        else global.removeEventListener("resize", fit);
        if (iframe.parentNode) iframe.parentNode.removeChild(iframe);
      },
    };
  }

  global.MarkupRoom = { mount: mount };
})(window);
