// Token chips drawn in the browser: the stepper and the explorer both draw with these.
//
// The same four rules as bpelab/widgets/chips.py (which draws text fallbacks and notebook HTML):
// neighbours never share a colour (or the repeat is striped), whitespace is drawn (⋅ → ↵),
// a chip never cuts a character as you see it (tokens that split one are drawn as ONE chip),
// and a screen reader hears each chip's text, ids and marks (the chips are a list).
// Pure functions where possible, so `node --test` can check them without a browser.

export const PALETTE = ["#77AADD", "#EE8866", "#EEDD88", "#FFAABB", "#99DDFF", "#44BB99"];

// The fonts every view draws the learner's text with: chips, text boxes, the stepper's symbols, the token-build
// panel (bpelab/widgets/chips.py reads this constant too). Monospace first: macOS, Windows, then Linux's Noto Sans
// Mono before DejaVu Sans Mono, which lacks 47 of Vietnamese's letters (Chromium draws ế as ê and a loose
// acute). Then a font for each script of the course's corpora, and a few more: Noto's name (Linux), then
// macOS's and Windows's. Without them Chromium picks a fallback font per character, and on Debian it drew
// Tamil வா in DejaVu Sans Mono (two boxes) and ப in Noto Sans Grantha. Thai: the looped Noto first, the style
// Thai is taught in, which also holds the ASCII quote (the stepper writes a lone tone mark as '่': in Noto Sans
// Thai, which lacks the quote, the mark was a box). tests/browser/test_glyphs.py reads which fonts Chromium
// drew each text with and checks that they hold its characters.
export const TEXT_FONTS = `ui-monospace, Menlo, Consolas, "Noto Sans Mono", "DejaVu Sans Mono",
  "Noto Sans Tamil", "Tamil Sangam MN", "InaiMathi", "Nirmala UI", "Latha",
  "Noto Sans Devanagari", "Kohinoor Devanagari", "Devanagari Sangam MN", "Mangal",
  "Noto Sans Bengali", "Kohinoor Bangla", "Bangla Sangam MN", "Vrinda",
  "Noto Sans Thai Looped", "Noto Looped Thai", "Noto Sans Thai", "Thonburi", "Leelawadee UI",
  "Noto Sans Ethiopic", "Kefa", "Ebrima", "Nyala",
  "Noto Sans Myanmar", "Myanmar Sangam MN", "Myanmar Text",
  "Noto Sans Georgian", "Noto Sans Armenian", "Mshtakan", "Sylfaen",
  "Noto Sans Hebrew", "Arial Hebrew", "Noto Sans Arabic", "Geeza Pro", "Segoe UI",
  "Noto Sans CJK SC", "Noto Sans CJK JP", "Noto Sans CJK KR", "PingFang SC", "Hiragino Sans", "Apple SD Gothic Neo",
  "Microsoft YaHei", "Yu Gothic", "Malgun Gothic",
  "Noto Color Emoji", "Apple Color Emoji", "Segoe UI Emoji", monospace`;

// CHIP_CSS, which every view puts in its page, hands the list to the views' own CSS as --bpe-text-fonts, and
// names bpe-signs: ≠ from a font that holds it. Noto Sans, JupyterLab's UI font on Debian, lacks ≠ and Chromium
// drew it as = and a slash beside it (U+0338, which the font never placed over =); the side-by-side view's marks
// and note use it before the UI font.
export const CHIP_CSS = `
:root{--bpe-text-fonts:${TEXT_FONTS}}
@font-face{font-family:bpe-signs;src:local("DejaVu Sans"),local("Segoe UI Symbol"),local("Apple Symbols");unicode-range:U+2260}
.bpe-chips{line-height:2.4;font-family:var(--bpe-text-fonts,monospace);font-size:14px}
.bpe-chip{display:inline-flex;flex-direction:column;align-items:center;color:#000;border-radius:4px;
  padding:0 4px;margin:1px 1px;white-space:pre;line-height:1.3;vertical-align:top;position:relative}
.bpe-chip-id{font-size:10px;color:#333}
.bpe-chips-glued{white-space:nowrap}
.bpe-chip-merged{outline:3px solid #222;outline-offset:-1px;font-weight:bold}
.bpe-chip-next{border-bottom:3px dashed #000}
.bpe-sr{position:absolute;width:1px;height:1px;margin:-1px;padding:0;border:0;overflow:hidden;
  clip:rect(0 0 0 0);white-space:nowrap}
`;

const WHITESPACE_SIGNS = { " ": "⋅", "\t": "→", "\n": "↵", "\r": "␍" };
const WHITESPACE_WORDS = { " ": "space", "\t": "tab", "\n": "new line", "\r": "carriage return" };
const MARK_WORDS = { merged: "just merged", next: "merges next", special: "special token", trained: "trained on" };
const INVISIBLE = /^\p{Default_Ignorable_Code_Point}+$/u; // drawn as nothing: joiners, selectors, marks

// Unicode's names of the invisible characters (Python's unicodedata.name; tests/test_js_chips.py holds them
// equal). Variation selectors are named by rule below; tag characters show their code point only.
const INVISIBLE_NAMES = {
  0xAD: "SOFT HYPHEN",
  0x34F: "COMBINING GRAPHEME JOINER",
  0x61C: "ARABIC LETTER MARK",
  0x115F: "HANGUL CHOSEONG FILLER",
  0x1160: "HANGUL JUNGSEONG FILLER",
  0x17B4: "KHMER VOWEL INHERENT AQ",
  0x17B5: "KHMER VOWEL INHERENT AA",
  0x180B: "MONGOLIAN FREE VARIATION SELECTOR ONE",
  0x180C: "MONGOLIAN FREE VARIATION SELECTOR TWO",
  0x180D: "MONGOLIAN FREE VARIATION SELECTOR THREE",
  0x180E: "MONGOLIAN VOWEL SEPARATOR",
  0x180F: "MONGOLIAN FREE VARIATION SELECTOR FOUR",
  0x200B: "ZERO WIDTH SPACE",
  0x200C: "ZERO WIDTH NON-JOINER",
  0x200D: "ZERO WIDTH JOINER",
  0x200E: "LEFT-TO-RIGHT MARK",
  0x200F: "RIGHT-TO-LEFT MARK",
  0x202A: "LEFT-TO-RIGHT EMBEDDING",
  0x202B: "RIGHT-TO-LEFT EMBEDDING",
  0x202C: "POP DIRECTIONAL FORMATTING",
  0x202D: "LEFT-TO-RIGHT OVERRIDE",
  0x202E: "RIGHT-TO-LEFT OVERRIDE",
  0x2060: "WORD JOINER",
  0x2061: "FUNCTION APPLICATION",
  0x2062: "INVISIBLE TIMES",
  0x2063: "INVISIBLE SEPARATOR",
  0x2064: "INVISIBLE PLUS",
  0x2066: "LEFT-TO-RIGHT ISOLATE",
  0x2067: "RIGHT-TO-LEFT ISOLATE",
  0x2068: "FIRST STRONG ISOLATE",
  0x2069: "POP DIRECTIONAL ISOLATE",
  0x206A: "INHIBIT SYMMETRIC SWAPPING",
  0x206B: "ACTIVATE SYMMETRIC SWAPPING",
  0x206C: "INHIBIT ARABIC FORM SHAPING",
  0x206D: "ACTIVATE ARABIC FORM SHAPING",
  0x206E: "NATIONAL DIGIT SHAPES",
  0x206F: "NOMINAL DIGIT SHAPES",
  0x3164: "HANGUL FILLER",
  0xFEFF: "ZERO WIDTH NO-BREAK SPACE",
  0xFFA0: "HALFWIDTH HANGUL FILLER",
  0x1BCA0: "SHORTHAND FORMAT LETTER OVERLAP",
  0x1BCA1: "SHORTHAND FORMAT CONTINUING OVERLAP",
  0x1BCA2: "SHORTHAND FORMAT DOWN STEP",
  0x1BCA3: "SHORTHAND FORMAT UP STEP",
  0x1D173: "MUSICAL SYMBOL BEGIN BEAM",
  0x1D174: "MUSICAL SYMBOL END BEAM",
  0x1D175: "MUSICAL SYMBOL BEGIN TIE",
  0x1D176: "MUSICAL SYMBOL END TIE",
  0x1D177: "MUSICAL SYMBOL BEGIN SLUR",
  0x1D178: "MUSICAL SYMBOL END SLUR",
  0x1D179: "MUSICAL SYMBOL BEGIN PHRASE",
  0x1D17A: "MUSICAL SYMBOL END PHRASE",
  0xE0001: "LANGUAGE TAG",
};

/** Whitespace made visible: "a b\n" -> "a⋅b↵". */
export function showWhitespace(text) {
  return Array.from(text, (ch) => WHITESPACE_SIGNS[ch] ?? ch).join("");
}

function unicodeName(cp) {
  if (cp >= 0xfe00 && cp <= 0xfe0f) return `VARIATION SELECTOR-${cp - 0xfe00 + 1}`;
  if (cp >= 0xe0100 && cp <= 0xe01ef) return `VARIATION SELECTOR-${cp - 0xe0100 + 17}`;
  return INVISIBLE_NAMES[cp] ?? "";
}

/** True when every character of `text` is drawn as nothing (U+FE0F, U+200D, U+00AD ...). */
export function isInvisible(text) {
  return INVISIBLE.test(text);
}

/** Invisible characters named so they can be seen: "U+FE0F VARIATION SELECTOR-16 + U+200D ZERO WIDTH JOINER". */
export function nameInvisible(text) {
  return Array.from(text, (ch) => {
    const cp = ch.codePointAt(0);
    return `U+${cp.toString(16).toUpperCase().padStart(4, "0")} ${unicodeName(cp)}`.trimEnd();
  }).join(" + ");
}

/** What a chip shows; a chip of invisible characters only (a lone ZWJ) shows their code points and names. */
export function chipLabel(text) {
  return isInvisible(text) ? nameInvisible(text) : showWhitespace(text);
}

export const UNKNOWN_ID = "?"; // the id an encoder gives a symbol its vocabulary lacks (Python: encoders.UNKNOWN_ID)

/** The ids under a chip; a chip whose symbols the vocabulary lacks says so, not "? ?". */
export function idLine(ids) {
  if (ids.length && ids.every((id) => id === UNKNOWN_ID)) return ids.length === 1 ? "no id" : "no ids";
  return ids.join(" ");
}

/** A chip's text as a screen reader should say it: whitespace named, not skipped. */
export function spoken(text) {
  if (isInvisible(text)) return chipLabel(text);
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
export function utf8Size(data, i) {
  const b = data[i];
  const size = b < 0x80 ? 1 : b >= 0xc2 && b < 0xe0 ? 2 : b >= 0xe0 && b < 0xf0 ? 3 : b >= 0xf0 && b < 0xf5 ? 4 : 0;
  if (size === 0 || i + size > data.length) return 0;
  for (let k = 1; k < size; k++) if ((data[i + k] & 0xc0) !== 0x80) return 0;
  // overlong forms, surrogates and code points past U+10FFFF are not characters (Unicode's table 3-7);
  // checked by hand: a strict TextDecoder per character made 100 KB of text take seconds
  const second = data[i + 1];
  if (b === 0xe0 && second < 0xa0) return 0;
  if (b === 0xed && second > 0x9f) return 0;
  if (b === 0xf0 && second < 0x90) return 0;
  if (b === 0xf4 && second > 0x8f) return 0;
  return size;
}

/** True when `data` (bytes) is whole UTF-8 characters only, as a strict decoder would accept it. */
export function isWholeUtf8(data) {
  for (let i = 0; i < data.length;) {
    const size = utf8Size(data, i);
    if (size === 0) return false;
    i += size;
  }
  return true;
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
    // a grapheme always ends after a line feed (Unicode's rule GB4): segmenting line by line is exact,
    // and much faster on a long text (Intl.Segmenter slows down more than linearly with length)
    if ((marker && endsWith(piece, marker)) || piece[piece.length - 1] === 0x0a) flush();
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

/**
 * Why several tokens share one chip, as chips.py says it: they cut one character's UTF-8 bytes (a token
 * after the first starts with a continuation byte), or they only keep apart the code points of one
 * character as you see it (👍 and 🏽, word-level or byte-level alike).
 */
export function whyOneChip(chip, pieces) {
  const cuts = chip.tokens.slice(1).some((i) => (asBytes(pieces[i])[0] & 0xc0) === 0x80);
  const shown = JSON.stringify(chip.text);
  return cuts
    ? `they cut the UTF-8 bytes of a character in ${shown}`
    : `${shown} is one character as you see it, made of code points the tokens keep apart`;
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
  if (chip.tokens.length > 1) lines.push(`${chip.tokens.length} tokens drawn as one chip: ${whyOneChip(chip, pieces)}`);
  return lines.join("\n");
}

/** True when a chip's text ends a word (its last token carries the end-of-word marker). */
export function endsWord(text, wordEnd) {
  return !!wordEnd && text.endsWith(wordEnd);
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
 * one colour per chip (default: the cycling palette); `chips`: makeChips(pieces, {wordEnd}), if known;
 * `firstChip`: the place of the first of them among all the text's chips (a page of a long text).
 */
export function drawChips(pieces, { ids = null, showIds = false, marks = {}, colours = null, breakLines = false, wordEnd = null, chips = null, firstChip = 0 } = {}) {
  chips ??= makeChips(pieces, { wordEnd }); // a caller that grouped them already passes them in
  const fills = backgrounds(colours ?? chips.map((_, i) => PALETTE[i % PALETTE.length]));
  const list = document.createElement("span");
  list.className = wordEnd ? "bpe-chips bpe-chips-glued" : "bpe-chips";
  list.setAttribute("role", "list");
  chips.forEach((chip, k) => {
    // with words ending in </w>, lines break between chips (<wbr>) but never just before the end of a
    // word: its last chip stays on the line of its neighbour, and "</w>" is never alone on a line
    if (wordEnd && k > 0 && !endsWord(chip.text, wordEnd)) list.append(document.createElement("wbr"));
    const kinds = [...new Set(chip.tokens.flatMap((i) => marks[i] ?? []))].sort();
    const el = document.createElement("span");
    el.className = ["bpe-chip", ...kinds.map((kind) => `bpe-chip-${kind}`)].join(" ");
    el.setAttribute("role", "listitem");
    el.dataset.bpeChip = String(firstChip + k); // its place among all the text's chips (a long text is drawn in pages)
    el.style.background = fills[k];
    el.title = hover(chip, pieces, ids, wordEnd);
    const text = chip.text;
    const label = document.createElement("span");
    label.setAttribute("aria-hidden", "true");
    label.textContent = chipLabel(text) || "\u00a0";
    el.append(label);
    if (showIds && ids) {
      const under = document.createElement("span");
      under.className = "bpe-chip-id";
      under.setAttribute("aria-hidden", "true");
      under.textContent = idLine(chip.tokens.map((i) => ids[i]));
      el.append(under);
    }
    const said = [spoken(text)];
    const own = ids ? chip.tokens.map((i) => ids[i]) : [];
    if (ids && own.every((id) => id === UNKNOWN_ID)) said.push(`not in this vocabulary: ${idLine(own)}`);
    else if (ids) said.push(chip.tokens.length === 1 ? `id ${own[0]}` : `${chip.tokens.length} tokens, ids ${own.join(", ")}`);
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
