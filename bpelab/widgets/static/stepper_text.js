// How the merge stepper writes symbols, numbers and its spoken sentence: as Python writes them
// (repr, f"{x:.2f}", MergeStepper.announcement), so the page reads like the notebook's own text and the
// Python tests' known answers hold here too. No DOM: node --test checks it line by line.

// the tie rules as the page names them (bpelab/widgets/stepper.py holds the same two names)
export const TIE_RULE_NAMES = { first: "first seen", lexicographic: "smallest pair" };

// ---- how symbols are written (as Python's repr, so the page reads like the notebook's text) ----

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function hex(code, width) {
  return code.toString(16).padStart(width, "0");
}

/** A string as Python's repr() writes it: quotes, and escapes for what does not print. */
export function pyRepr(text) {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = "";
  for (const ch of text) {
    const code = ch.codePointAt(0);
    if (ch === "\\" || ch === quote) out += "\\" + ch;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (ch !== " " && /[\p{C}\p{Z}]/u.test(ch)) {
      out += code < 0x100 ? "\\x" + hex(code, 2) : code < 0x10000 ? "\\u" + hex(code, 4) : "\\U" + hex(code, 8);
    } else out += ch;
  }
  return quote + out + quote;
}

/** Bytes as Python's repr() writes them: b'\xe2\x80'. */
function bytesRepr(bytes) {
  let out = "";
  for (const b of bytes) {
    if (b === 0x5c || b === 0x27) out += "\\" + String.fromCharCode(b);
    else if (b === 0x0a) out += "\\n";
    else if (b === 0x0d) out += "\\r";
    else if (b === 0x09) out += "\\t";
    else if (b >= 0x20 && b < 0x7f) out += String.fromCharCode(b);
    else out += "\\x" + hex(b, 2);
  }
  return "b'" + out + "'";
}

/** How one trace writes a symbol: `text` for the tables (repr, with ids in byte-level runs), `plain`
 *  for the spoken sentence, `piece` for the chips. */
export function symbolWriter(trace) {
  const { symbols, ids } = trace;
  if (!ids) return { text: (s) => pyRepr(symbols[s]), plain: (s) => symbols[s], piece: (s) => symbols[s] };
  const decode = (s) => {
    try {
      return strictUtf8.decode(Uint8Array.from(symbols[s]));
    } catch {
      return null;
    }
  };
  return {
    text: (s) => {
      const shown = decode(s);
      return `${shown === null ? bytesRepr(symbols[s]) : pyRepr(shown)} [${ids[s]}]`;
    },
    plain: (s) => new TextDecoder("utf-8", { ignoreBOM: true }).decode(Uint8Array.from(symbols[s])),
    piece: (s) => symbols[s],
  };
}

/** x with two decimals, as Python's f"{x:.2f}" writes it (an exact tie rounds to even). */
export function fixed2(x) {
  const exact = x.toFixed(60);
  const [whole, decimals] = exact.split(".");
  if (/^50*$/.test(decimals.slice(2))) {
    const cents = BigInt(whole.replace("-", "") + decimals.slice(0, 2));
    const even = cents % 2n === 0n ? cents : cents + 1n;
    const digits = even.toString().padStart(3, "0");
    return (x < 0 ? "-" : "") + digits.slice(0, -2) + "." + digits.slice(-2);
  }
  return x.toFixed(2);
}

/** The sentence a screen reader hears at `step` (the same as MergeStepper.announcement). */
export function announcement(trace, step) {
  const n = trace.merges.length;
  const head = `Step ${step} of ${n}`;
  if (step === 0) return `${head}: nothing merged yet`;
  const w = symbolWriter(trace);
  const [a, b, c, count] = trace.merges[step - 1];
  return `${head}: merged ${w.plain(a)} + ${w.plain(b)} into ${w.plain(c)}, ${trace.scoreName} ${count}`;
}
