// A widget's view (its text, its tokenizer) kept in the page's address, so a teacher can share it as a link.
//
// Only the fragment (after #) is used: a browser never sends it to any server, and a file:// page has
// no server at all. Several widgets on one page each own one `key=value` part of the fragment, so they
// never clobber each other; the address is changed with history.replaceState, so typing adds no
// Back-button steps. The explorer uses this module; a side-by-side view can call the same functions.
//
// A view is stored as JSON (which writes a lone surrogate as \udXXX, so any JavaScript string comes
// back exactly), compressed with deflate where the browser has CompressionStream ("z" + base64url),
// else as plain UTF-8 ("u" + base64url). A link longer than MAX_LINK_CHARS is not made: mail and chat
// programs cut long addresses, and a link that silently loses the end of a text would mislead.

export const MAX_LINK_CHARS = 65_536;
/** What a widget's part of the address is called: "bpe-w3" for the page's fourth widget. */
export const KEY_PREFIX = "bpe-w";
/** The address part naming the widget the link was made from: the page opens scrolled to that one. */
export const AT_KEY = "bpe-at";
const VIEW_SCRIPT = 'script[type="application/vnd.jupyter.widget-view+json"]';

const addressUtf8 = new TextEncoder();
const addressStrict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function toBase64Url(bytes) {
  let binary = "";
  for (let at = 0; at < bytes.length; at += 0x8000) binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error("the link's view is damaged (characters that base64url never uses)");
  let binary;
  try {
    binary = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4));
  } catch {
    throw new Error("the link's view is damaged (cut short): was the whole link copied?");
  }
  return Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
}

async function throughStream(bytes, stream) {
  const piped = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(piped).arrayBuffer());
}

/** True when this browser can compress (every current one can; the check keeps old ones working). */
export function canCompress() {
  return typeof CompressionStream === "function" && typeof DecompressionStream === "function";
}

/** A view ({tokenizer, text, ...}, any JSON) as the short text one address part holds. */
export async function encodeView(view, { compress = canCompress() } = {}) {
  const bytes = addressUtf8.encode(JSON.stringify(view)); // well-formed: lone surrogates are escaped
  if (!compress) return "u" + toBase64Url(bytes);
  return "z" + toBase64Url(await throughStream(bytes, new CompressionStream("deflate")));
}

/** The view an address part holds; a clear Error when it is damaged or this browser cannot read it. */
export async function decodeView(value) {
  const kind = value.slice(0, 1);
  let bytes = fromBase64Url(value.slice(1));
  if (kind === "z") {
    if (!canCompress()) throw new Error("this browser cannot open compressed links (no DecompressionStream): try a current browser");
    try {
      bytes = await throughStream(bytes, new DecompressionStream("deflate"));
    } catch {
      throw new Error("the link's view is damaged (it does not decompress): was the whole link copied?");
    }
  } else if (kind !== "u") {
    throw new Error(`the link's view starts with ${JSON.stringify(kind)}, not z or u: was it made by this course?`);
  }
  try {
    return JSON.parse(addressStrict.decode(bytes));
  } catch {
    throw new Error("the link's view is damaged (not the text this course writes): was the whole link copied?");
  }
}

/** The fragment's key=value parts as a Map (a plain anchor such as "#Recap" has none). */
export function readFragment(hash) {
  const parts = new Map();
  for (const part of hash.replace(/^#/, "").split("&")) {
    const at = part.indexOf("=");
    if (at > 0) parts.set(decodeURIComponent(part.slice(0, at)), part.slice(at + 1));
  }
  return parts;
}

/** `hash` with `key` set to `value` (null: removed), every other widget's part kept as it was. */
export function withPart(hash, key, value) {
  const parts = readFragment(hash);
  if (value === null) parts.delete(key);
  else parts.set(key, value);
  const joined = [...parts].map(([k, v]) => `${encodeURIComponent(k)}=${v}`).join("&");
  return joined ? "#" + joined : "";
}

/**
 * The key of the widget drawn in `el` on a static page: its position among the page's widget outputs,
 * found from the view scripts `make html` writes (they are in the page before anything is drawn, so
 * the key does not depend on which widget drew first). null when `el` is in no such page (JupyterLab).
 */
export function widgetKey(el, doc = globalThis.document) {
  const scripts = [...doc.querySelectorAll(VIEW_SCRIPT)];
  for (let node = el; node; node = node.parentElement) {
    const own = scripts.findIndex((script) => script.parentElement === node);
    if (own >= 0) return KEY_PREFIX + own;
  }
  return null;
}

/** The view stored under `key` in the page's address, or null; a damaged one throws a clear Error. */
export async function viewInAddress(key, where = globalThis.location) {
  const value = readFragment(where.hash).get(key);
  return value === undefined ? null : decodeView(value);
}

/** `hash` naming `key` (or, for null, no widget) as the one to scroll to; the part goes last, where it reads best. */
function pointingAt(hash, key) {
  const without = withPart(hash, AT_KEY, null);
  return key === null ? without : withPart(without, AT_KEY, key);
}

/**
 * The key of the widget a page opened from a link should scroll to: the one its bpe-at part names (the
 * widget last changed or copied from), else, for a link made before that part existed, the first widget
 * on the page with a view. null when the address holds no view. Only one widget scrolls: two that each
 * scrolled to themselves would fight, and the last to finish drawing would win.
 */
export function linkedKey(where = globalThis.location) {
  const parts = readFragment(where.hash);
  const named = parts.get(AT_KEY);
  if (named !== undefined && parts.has(named)) return named;
  const number = (key) => Number(key.slice(KEY_PREFIX.length));
  const keys = [...parts.keys()].filter((key) => key.startsWith(KEY_PREFIX) && Number.isInteger(number(key)));
  keys.sort((a, b) => number(a) - number(b));
  return keys[0] ?? null;
}

/**
 * Keep `view` under `key` in the page's address (replaceState: no new history step), and name `key` as the
 * widget to scroll to when the link is opened. Returns {url, tooLong}: the address that reopens the view,
 * or tooLong (its length) when the link would pass MAX_LINK_CHARS; then the address keeps no view for
 * this key (an old one would mislead).
 */
export async function keepInAddress(key, view, where = globalThis.location, history = globalThis.history) {
  const value = await encodeView(view);
  const base = where.href.split("#")[0];
  const hash = pointingAt(withPart(where.hash, key, value), key);
  const length = base.length + hash.length;
  const tooLong = length > MAX_LINK_CHARS ? length : 0;
  const dropped = withPart(where.hash, key, null);
  const kept = tooLong ? (readFragment(dropped).get(AT_KEY) === key ? pointingAt(dropped, null) : dropped) : hash;
  if (kept !== where.hash && !(kept === "" && where.hash === "")) history.replaceState(history.state, "", base + (kept || "#"));
  return { url: tooLong ? null : base + kept, tooLong };
}
