// Token chips drawn in the browser: the stepper and the explorer both draw with these.
//
// The same four rules as bpelab/widgets/chips.py (which draws text fallbacks and notebook HTML):
// neighbours never share a colour (or the repeat is striped), whitespace is drawn (⋅ → ↵),
// a chip never cuts a character as you see it (tokens that split one are drawn as ONE chip),
// and a screen reader hears each chip's text, ids and marks (the chips are a list).
// Pure functions where possible, so `node --test` can check them without a browser.

export const PALETTE = ["#77AADD", "#EE8866", "#EEDD88", "#FFAABB", "#99DDFF", "#44BB99"];

export const CHIP_CSS = `
.bpe-chips{line-height:2.4;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:14px}
.bpe-chip{display:inline-flex;flex-direction:column;align-items:center;color:#000;border-radius:4px;
  padding:0 4px;margin:1px 1px;white-space:pre;line-height:1.3;vertical-align:top;position:relative}
.bpe-chip-id{font-size:10px;color:#333}
.bpe-chip-merged{outline:3px solid #222;outline-offset:-1px;font-weight:bold}
.bpe-chip-next{border-bottom:3px dashed #000}
.bpe-sr{position:absolute;width:1px;height:1px;margin:-1px;padding:0;border:0;overflow:hidden;
  clip:rect(0 0 0 0);white-space:nowrap}
`;

const WHITESPACE_SIGNS = { " ": "⋅", "\t": "→", "\n": "↵", "\r": "␍" };
const WHITESPACE_WORDS = { " ": "space", "\t": "tab", "\n": "new line", "\r": "carriage return" };
const MARK_WORDS = { merged: "just merged", next: "merges next" };
const FORMAT_ONLY = /^\p{Cf}+$/u;

/** Whitespace made visible: "a b\n" -> "a⋅b↵". */
export function showWhitespace(text) {
  return Array.from(text, (ch) => WHITESPACE_SIGNS[ch] ?? ch).join("");
}

/** What a chip shows; a chip of invisible format characters only (a lone ZWJ) shows its code points. */
export function chipLabel(text) {
  if (FORMAT_ONLY.test(text)) {
    return Array.from(text, (ch) => "U+" + ch.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")).join(" ");
  }
  return showWhitespace(text);
}

/** A chip's text as a screen reader should say it: whitespace named, not skipped. */
export function spoken(text) {
  if (FORMAT_ONLY.test(text)) return chipLabel(text);
  const words = [];
  let run = "";
  for (const ch of text) {
    if (ch in WHITESPACE_WORDS) {
      if (run) words.push(run);
      run = "";
      words.push(WHITESPACE_WORDS[ch]);
    } else {
      run += ch;
    }
  }
  if (run) words.push(run);
  return words.join(" ") || "empty";
}

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { ignoreBOM: true }); // keep a leading U+FEFF: it is text here
const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function asBytes(piece) {
  return typeof piece === "string" ? encoder.encode(piece) : Uint8Array.from(piece);
}

function concat(arrays) {
  const out = new Uint8Array(arrays.reduce((n, a) => n + a.length, 0));
  let at = 0;
  for (const a of arrays) {
    out.set(a, at);
    at += a.length;
  }
  return out;
}

// Byte offsets (within `data`) where its graphemes end. Bytes that are not valid UTF-8 are their
// own graphemes, one byte each (Python's chips do the same with surrogateescape).
function graphemeEnds(data) {
  const ends = new Set();
  let i = 0;
  while (i < data.length) {
    // the longest valid UTF-8 stretch from i
    let j = i;
    while (j < data.length) {
      const size = utf8Size(data, j);
      if (size === 0) break;
      j += size;
    }
    if (j > i) {
      const text = decoder.decode(data.subarray(i, j));
      let at = i;
      for (const { segment } of graphemes(text)) {
        at += encoder.encode(segment).length;
        ends.add(at);
      }
      i = j;
    } else {
      i += 1; // one stray byte
      ends.add(i);
    }
  }
  return ends;
}

const segmenter = typeof Intl !== "undefined" && Intl.Segmenter ? new Intl.Segmenter(undefined, { granularity: "grapheme" }) : null;

function graphemes(text) {
  if (segmenter) return segmenter.segment(text);
  return Array.from(text, (segment) => ({ segment })); // old browsers: code points
}

// How many bytes the valid UTF-8 character at `i` takes, or 0 when it is not one.
function utf8Size(data, i) {
  const b = data[i];
  const size = b < 0x80 ? 1 : b >= 0xc2 && b < 0xe0 ? 2 : b >= 0xe0 && b < 0xf0 ? 3 : b >= 0xf0 && b < 0xf5 ? 4 : 0;
  if (size === 0 || i + size > data.length) return 0;
  for (let k = 1; k < size; k++) if ((data[i + k] & 0xc0) !== 0x80) return 0;
  try {
    strict.decode(data.subarray(i, i + size)); // overlong forms and surrogates are not characters
    return size;
  } catch {
    return 0;
  }
}

/**
 * Group token positions so that no group boundary falls inside a grapheme. `pieces` are the
 * tokens' text (strings) or bytes (arrays of numbers / Uint8Array). With `wordEnd` ("</w>"), a
 * token ending with it ends its group and graphemes are found word by word: the marker is not text.
 * Returns [{tokens: [positions], text}].
 */
export function makeChips(pieces, { wordEnd = null } = {}) {
  const raw = pieces.map(asBytes);
  const marker = wordEnd ? encoder.encode(wordEnd) : null;
  const boundaries = new Set([0]);
  let start = 0;
  let word = [];
  const flush = () => {
    const data = concat(word);
    for (const end of graphemeEnds(data)) boundaries.add(start + end);
    start += data.length;
    word = [];
  };
  for (const piece of raw) {
    word.push(piece);
    if (marker && endsWith(piece, marker)) flush();
  }
  flush();
  const chips = [];
  let current = [];
  let end = 0;
  raw.forEach((piece, position) => {
    current.push(position);
    end += piece.length;
    if (boundaries.has(end)) {
      chips.push(current);
      current = [];
    }
  });
  if (current.length) chips.push(current);
  return chips.map((tokens) => ({ tokens, text: decoder.decode(concat(tokens.map((i) => raw[i]))) }));
}

function endsWith(data, tail) {
  if (tail.length > data.length) return false;
  for (let k = 1; k <= tail.length; k++) if (data[data.length - k] !== tail[tail.length - k]) return false;
  return true;
}

/** CSS backgrounds: a colour equal to its left neighbour's is striped, so neighbours never look the same. */
export function backgrounds(colours) {
  const out = [];
  colours.forEach((colour, i) => {
    if (i > 0 && colour === colours[i - 1] && !out[i - 1].startsWith("repeating")) {
      out.push(`repeating-linear-gradient(135deg,${colour} 0 6px,#fff 6px 9px)`);
    } else {
      out.push(colour);
    }
  });
  return out;
}

/** The hover text of one chip: each token's id (or position) and text. */
function hover(chip, pieces, ids, wordEnd) {
  const lines = chip.tokens.map((i) => {
    let text = typeof pieces[i] === "string" ? pieces[i] : decoder.decode(asBytes(pieces[i]));
    let ends = "";
    if (wordEnd && text.endsWith(wordEnd)) {
      text = text.slice(0, -wordEnd.length);
      ends = ` + ${wordEnd} (end of word)`;
    }
    const who = ids ? `id ${ids[i]}` : `token ${i + 1}`;
    return `${who} · text ${JSON.stringify(text)}${ends}`;
  });
  if (chip.tokens.length > 1) lines.push(`${chip.tokens.length} tokens drawn as one chip: they cut one character`);
  return lines.join("\n");
}

/** Add the chips' style sheet to `root` once. */
export function ensureCss(root, css = CHIP_CSS, id = "bpe-chip-css") {
  if (root.querySelector(`style[data-bpe="${id}"]`)) return;
  const style = document.createElement("style");
  style.dataset.bpe = id;
  style.textContent = css;
  root.prepend(style);
}

/**
 * Token chips as a DOM element: <span class="bpe-chips" role="list"> of <span class="bpe-chip"
 * role="listitem">. `marks` maps a token position to a list of "merged" / "next"; `colours` gives
 * one colour per chip (default: the cycling palette); `chips`: makeChips(pieces, {wordEnd}), if known.
 */
export function drawChips(pieces, { ids = null, showIds = false, marks = {}, colours = null, breakLines = false, wordEnd = null, chips = null } = {}) {
  chips ??= makeChips(pieces, { wordEnd }); // a caller that grouped them already passes them in
  const fills = backgrounds(colours ?? chips.map((_, i) => PALETTE[i % PALETTE.length]));
  const list = document.createElement("span");
  list.className = "bpe-chips";
  list.setAttribute("role", "list");
  chips.forEach((chip, k) => {
    const kinds = [...new Set(chip.tokens.flatMap((i) => marks[i] ?? []))].sort();
    const el = document.createElement("span");
    el.className = ["bpe-chip", ...kinds.map((kind) => `bpe-chip-${kind}`)].join(" ");
    el.setAttribute("role", "listitem");
    el.style.background = fills[k];
    el.title = hover(chip, pieces, ids, wordEnd);
    const text = chip.text;
    const label = document.createElement("span");
    label.setAttribute("aria-hidden", "true");
    label.textContent = chipLabel(text) || "\u00a0";
    el.append(label);
    if (showIds && ids) {
      const idLine = document.createElement("span");
      idLine.className = "bpe-chip-id";
      idLine.setAttribute("aria-hidden", "true");
      idLine.textContent = chip.tokens.map((i) => ids[i]).join(" ");
      el.append(idLine);
    }
    const said = [spoken(text)];
    if (ids) said.push(chip.tokens.length === 1 ? `id ${ids[chip.tokens[0]]}` : `${chip.tokens.length} tokens, ids ${chip.tokens.map((i) => ids[i]).join(", ")}`);
    else if (chip.tokens.length > 1) said.push(`${chip.tokens.length} tokens`);
    for (const kind of kinds) said.push(MARK_WORDS[kind]);
    const sr = document.createElement("span");
    sr.className = "bpe-sr";
    sr.textContent = said.join(", ");
    el.append(sr);
    list.append(el);
    if (breakLines && chip.text.endsWith("\n")) {
      const br = document.createElement("br");
      br.setAttribute("aria-hidden", "true");
      list.append(br);
    }
  });
  return list;
}
