// The explorer's "Copy a link to this view" button, and the page address that follows its text and tokenizer.
//
// Static site only (globalThis.bpelabStatic): a teacher types a text, picks a tokenizer, copies the link and
// sends it; opening the link shows the same explorer with that text and tokenizer, scrolled into view.
// The address work is page_address.js's (a side-by-side view can use it too); this module wires it to
// the explorer's text box and menu and says in words what happened.

import { ensureCss } from "./chips.js";
import { MAX_LINK_CHARS, keepInAddress, linkedKey, viewInAddress, widgetKey } from "./page_address.js";

const LINK_CSS = `
.bpe-explorer-link{display:flex;flex-wrap:wrap;align-items:center;gap:6px}
.bpe-explorer-link button{font-size:13px;padding:2px 8px;cursor:pointer}
.bpe-explorer-link .bpe-link-status{font-size:0.9em;overflow-wrap:anywhere}
.bpe-explorer-link input{flex:1 1 20em;min-width:0;font-size:12px}
`;
const REMEMBER_AFTER_MS = 400; // typing settles before the address is rewritten
const WAIT_FOR_PAGE_MS = 8000; // how long to wait for the widget to be placed in the page
const KEEP_IN_VIEW_MS = 60_000; // how long a linked explorer is kept in view while the page above it draws
const LOOK_EVERY_MS = 250; // how often it checks that nothing above pushed it away

/** Words for a link too long to make. */
export function tooLongMessage(length) {
  return `This text is too long for a link (its link would be ${length.toLocaleString("en")} characters; ` +
    `links hold up to ${MAX_LINK_CHARS.toLocaleString("en")}): share a shorter part of it.`;
}

async function placedKey(el) {
  const until = Date.now() + WAIT_FOR_PAGE_MS;
  while (!el.isConnected && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
  return el.isConnected ? widgetKey(el) : null;
}

/**
 * Scroll to `box`, and scroll back whenever something drawn above it (a widget loading its tokenizer, a
 * formula) moves it: on a slow machine the page above can take many seconds to settle. Stops at once
 * when the reader scrolls, clicks or types (their scrolling wins), and after KEEP_IN_VIEW_MS at most.
 */
function keepInView(box) {
  let stopped = false;
  const stop = () => { stopped = true; };
  for (const type of ["wheel", "keydown", "mousedown", "touchstart"]) addEventListener(type, stop, { once: true, passive: true });
  const until = Date.now() + KEEP_IN_VIEW_MS;
  let scrolledTo = null; // where this function last left the page, and the box in the window then
  let lastTop = null;
  const look = () => {
    if (stopped || Date.now() > until) return;
    const top = box.getBoundingClientRect().top;
    // the page moved and the box moved in the window with it: the reader scrolled (a scrollbar dragged sends
    // no event above). The browser's scroll anchoring also moves the page when something above changes, but
    // keeps what is in view where it was, so the box stays put in the window.
    if (scrolledTo !== null && scrollY !== scrolledTo && Math.abs(top - lastTop) > 2) return;
    // not at the top: something drawn above moved it, or it was placed while the page was still too short to
    // bring it there (its own chips draw later); at the page's end this is a no-op
    if (Math.abs(top) > 2) box.scrollIntoView({ block: "start", behavior: "instant" }); // a smooth one would look like the reader's
    scrolledTo = scrollY;
    lastTop = box.getBoundingClientRect().top;
    setTimeout(look, LOOK_EVERY_MS);
  };
  look();
}

/**
 * Add the link row to the explorer `box` and restore a view from the address. `view()` gives
 * {tokenizer, text} now; `apply(view)` shows a view (returns the tokenizer label shown, or null when
 * the link names a tokenizer this explorer lacks).
 */
export function linkExplorer(box, { view, apply, after }) {
  ensureCss(box.parentElement || box, LINK_CSS, "bpe-explorer-link-css");
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = "Copy a link to this view";
  button.title = "A link that opens this page with this text and this tokenizer (nothing is sent anywhere: it is all in the link)";
  const status = document.createElement("span");
  status.className = "bpe-link-status";
  status.setAttribute("role", "status");
  const row = document.createElement("div");
  row.className = "bpe-explorer-link";
  row.append(button, status);
  after.after(row);
  const keyReady = placedKey(box);
  let timer = null;

  const say = (text, link = null) => {
    status.replaceChildren(text);
    row.querySelector("input")?.remove();
    if (link) {
      const field = document.createElement("input");
      field.readOnly = true;
      field.value = link;
      field.setAttribute("aria-label", "the link to this view");
      row.append(field);
      field.select();
    }
  };

  async function remember() {
    const key = await keyReady;
    if (!key) return null;
    const kept = await keepInAddress(key, view());
    if (kept.tooLong) say(tooLongMessage(kept.tooLong));
    else if (status.dataset.tooLong) say("");
    status.dataset.tooLong = kept.tooLong ? "yes" : "";
    return kept;
  }

  button.addEventListener("click", async () => {
    const kept = await remember();
    if (!kept) return say("This page cannot hold a link to this view.");
    if (kept.tooLong) return;
    const shown = view();
    try {
      await navigator.clipboard.writeText(kept.url);
      say(`Link copied: it opens this page with this text and ${shown.tokenizer}.`);
    } catch {
      say("Copy this link (Ctrl+C or ⌘C):", kept.url);
    }
  });

  (async () => {
    const key = await keyReady;
    if (!key) return;
    let stored;
    try {
      stored = await viewInAddress(key);
    } catch (err) {
      return say(`The link's view could not be opened: ${err.message}`);
    }
    if (!stored) return;
    const shownLabel = apply(stored);
    if (shownLabel === null) say(`The link asked for ${stored.tokenizer}, which this view does not offer.`);
    if (linkedKey() === key) keepInView(box); // the page scrolls to one widget: the one the link was made from
  })();

  return {
    /** Call after the reader changed the text or the tokenizer: the address follows, a moment later. */
    changed() {
      clearTimeout(timer);
      timer = setTimeout(remember, REMEMBER_AFTER_MS);
    },
  };
}
