// What a tag on a page says, at every zoom: its type's icon, its type name
// (a date tag: what it will hold and in which format, "Date signed ·
// MM/DD/YYYY", or the format alone when that is too long, or its type's short
// word, "Date", "Init.") and its signer's initials when they fit; without the
// icon when only that is too much; the words without the initials (the colour
// says whose) when the words would not fit beside them; the icon and the
// initials when no words fit; the initials alone on the smallest — never a cut
// word ("I…"). A required tag carries a marker. What
// it knows of each tag type it reads from the viewer's data-tag-types
// (readTagTypes). The pure parts (labelMode, tagText, readTagTypes) are
// node-tested; watchTagLabels keeps the tags of a viewer decorated as they
// are added, swapped, resized, zoomed or changed.
import { t as tr } from "./i18n.mjs";

const SVG = "http://www.w3.org/2000/svg";

/**
 * The tag types the viewer lists in its data-tag-types (the server's one
 * catalog, models/tagtype, written by handlers' tagTypesJSON), by code: each
 * { code, label, group, width, height (default size in points), icon (its
 * <symbol> in static/img/tags.svg), date, words, format (a date tag's words
 * before its format, and the format it starts with), state }.
 */
export function readTagTypes(json) {
  const types = new Map();
  for (const t of JSON.parse(json || "[]")) types.set(t.code, t);
  return types;
}

/** An icon (an <svg> using the symbol icon of the sprite at iconsURL), hidden from assistive technology; null when there is none. */
export function typeIcon(iconsURL, icon, className) {
  if (!iconsURL || !icon) return null;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("class", className);
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const use = document.createElementNS(SVG, "use");
  use.setAttribute("href", `${iconsURL}#${icon}`);
  svg.append(use);
  return svg;
}

/** Sizes in CSS pixels of a tag's parts (editor.css .tag, .tag__icon, .tag__signer, .tag__req). */
export const PARTS = { pad: 8, gap: 4, icon: 12, marker: 7 };

/**
 * Which parts fit a tag width pixels wide: "full" (icon, text, initials),
 * "text" (text and initials: the words matter more than the icon, say a
 * date's preview), "name" (the text alone: what the tag is matters more than
 * whose it is, which its colour says), "compact" (icon and initials) or
 * "mini" (the initials, or the icon when unassigned). textWidth and
 * initialsWidth are the measured widths (0: none).
 */
export function labelMode({ width, textWidth, initialsWidth = 0, required = false, parts = PARTS }) {
  const { pad, gap, icon, marker } = parts;
  const req = required ? gap + marker : 0;
  const extra = (initialsWidth ? gap + initialsWidth : 0) + req;
  if (pad + icon + gap + textWidth + extra <= width) return "full";
  if (pad + textWidth + extra <= width) return "text";
  if (textWidth && pad + textWidth + req <= width) return "name";
  if (pad + icon + extra <= width) return "compact";
  return "mini";
}

/** The font a tag's words are drawn in (editor.css .tag__type), for measuring them. */
export const TEXT_FONT = "italic 500 11px";

/** A date format as a tag names it: its token, as the properties panel lists it ("full" says more); none: the type's defaultFormat. */
export function formatName(format, defaultFormat) {
  const f = format || defaultFormat;
  return f === "full" ? tr("editor.date.full") : f;
}

/**
 * The words a tag may say, longest first: its type's name; a date tag, what
 * it holds and its format ("Date signed · MM/DD/YYYY"), then the format
 * alone for a tag too narrow for both — never a date, which would read as
 * fixed. types is readTagTypes' map. The server renders the first
 * (templates.TagText).
 */
export function tagTexts({ type, label, dateFormat = "" }, types) {
  const t = types.get(type);
  const short = t?.short && t.short !== label ? [t.short] : [];
  if (!t?.date) return [label, ...short];
  const name = formatName(dateFormat, t.format);
  return [`${t.words || label} · ${name}`, name, t.short || label];
}

/** The words on a tag with room for them all (tagTexts' first). */
export function tagText(tag, types) {
  return tagTexts(tag, types)[0];
}


/**
 * Decorates every tag under root and keeps doing so as tags come and change.
 * iconsURL is the sprite; types the tag types (readTagTypes).
 */
export function watchTagLabels(root, { iconsURL = root.dataset.tagIcons || "", types = readTagTypes(root.dataset.tagTypes), signal } = {}) {
  const ctx = document.createElement("canvas").getContext("2d");
  const widths = new Map();
  const measure = (text, font) => {
    const key = font + "|" + text;
    if (!widths.has(key)) {
      ctx.font = font;
      widths.set(key, Math.ceil(ctx.measureText(text).width));
    }
    return widths.get(key);
  };
  let family = "";

  const decorate = (tag) => {
    const type = tag.dataset.tagType;
    if (!type) return;
    let text = tag.querySelector(".tag__type");
    if (!text) {
      text = document.createElement("span");
      text.className = "tag__type";
      tag.prepend(text);
    }
    // The type's name, kept once (the server writes it; a placeholder's text is it): a date tag's text says more.
    tag.dataset.typeLabel ||= text.textContent.trim() || types.get(type)?.label || type;
    const texts = tagTexts({ type, label: tag.dataset.typeLabel, dateFormat: tag.dataset.dateFormat || "" }, types);
    let icon = tag.querySelector(".tag__icon");
    if (!icon && (icon = typeIcon(iconsURL, types.get(type)?.icon, "tag__icon"))) tag.prepend(icon);
    const required = "required" in tag.dataset;
    let req = tag.querySelector(".tag__req");
    if (required && !req) {
      req = document.createElement("span");
      req.className = "tag__req";
      req.setAttribute("aria-hidden", "true");
      req.title = tr("editor.tag.required");
      req.textContent = "*";
      text.after(req);
    } else if (!required && req) {
      req.remove();
    }
    const width = parseFloat(tag.style.width);
    if (!width) {
      if (text.textContent !== texts[0]) text.textContent = texts[0];
      return;
    }
    family ||= getComputedStyle(tag).fontFamily || "sans-serif";
    const initials = tag.querySelector(".tag__signer")?.textContent.trim() || "";
    const initialsWidth = initials ? measure(initials, `600 10px ${family}`) + 8 : 0;
    // The longest words that fit whole beside the initials; else the longest that fit alone;
    // when none does, the shortest (hidden by the mode).
    const modes = texts.map((w) => labelMode({ width, textWidth: measure(w, `${TEXT_FONT} ${family}`), initialsWidth, required }));
    let at = modes.findIndex((m) => m === "full" || m === "text");
    if (at < 0) at = modes.indexOf("name");
    if (at < 0) at = texts.length - 1;
    const words = texts[at];
    const mode = modes[at];
    if (text.textContent !== words) text.textContent = words;
    if (tag.dataset.label !== mode) tag.dataset.label = mode;
    // What a cut-down tag no longer says is its tooltip.
    const title = tag.getAttribute("aria-label") || words;
    if (tag.title !== title) tag.title = title;
  };

  let queued = new Set();
  let frame = 0;
  const flush = () => {
    frame = 0;
    const tags = queued;
    queued = new Set();
    for (const tag of tags) if (tag.isConnected) decorate(tag);
  };
  const queue = (tag) => {
    queued.add(tag);
    frame ||= requestAnimationFrame(flush);
  };
  for (const tag of root.querySelectorAll(".tag")) decorate(tag);
  const observer = new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === "attributes") {
        if (r.target.classList?.contains("tag")) queue(r.target);
        continue;
      }
      for (const node of r.addedNodes) {
        if (!(node instanceof Element)) continue;
        if (node.classList.contains("tag")) queue(node);
        else for (const tag of node.querySelectorAll?.(".tag") || []) queue(tag);
      }
    }
  });
  observer.observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ["style", "data-required", "data-date-format", "data-signer-id", "aria-label"] });
  signal?.addEventListener("abort", () => observer.disconnect());
  return { decorate, stop: () => observer.disconnect() };
}
