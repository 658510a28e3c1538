// How a SentencePiece piece is built, on a page without Python: bpelab/sentencepiece_build.py's build_piece, the
// same TokenBuild shape (token_build_view.js draws it). The piece's characters are joined as its encoder joins
// them: the pair forming the highest-scoring piece first (only pieces scoring at least the piece's own), the
// leftmost of equal scores. tests/test_js_sentencepiece.py holds it equal to the Python on every piece.

const buildUtf8 = new TextEncoder();
const pieceBytesOf = (text) => Array.from(buildUtf8.encode(text));

/** What the panel says of a byte piece (as byte_note in Python). */
export function byteNote(piece) {
  return `${piece} is a byte piece (byte fallback): a character that is no piece of the vocabulary is written as ` +
    "its UTF-8 bytes, one byte piece each. No merge builds a byte piece or joins it to another.";
}

/** What the panel says of a piece whose score other pieces share (as tie_note in Python). */
export function tieNote(model, id) {
  const score = model.scores[id];
  let sharing = 0;
  let lowest = true;
  model.types.split("").forEach((type, i) => {
    if (type !== "n") return;
    if (model.scores[i] === score) sharing += 1;
    if (model.scores[i] < score) lowest = false;
  });
  if (sharing < 2) return "";
  return `${sharing} pieces of this model share this score, ${score}${lowest ? ", the lowest of all" : ""}: among them ` +
    "SentencePiece joins the leftmost pair first, so this build is the order its encoder takes, not an order the scores give.";
}

/** The build of piece `id` of `model` (sentencepiece.js's sentencePieceModel). */
export function buildPiece(model, id) {
  const piece = model.pieces[id];
  if (piece === undefined) throw new Error(`${id} is not an id of this model`);
  if (model.types[id] === "b") {
    const token = [model.byteValue[id]];
    return { note: byteNote(piece), token, id, numbering: "score", reachable: true, steps: [], parts: [token],
      tree: { token, id, children: [] }, leaves: "bytes" };
  }
  if (model.types[id] !== "n") throw new Error(`${piece} (id ${id}) is not built by merges (pick a chip of ordinary text)`);
  const limit = model.scores[id];
  let nodes = Array.from(piece, (ch) => ({ token: pieceBytesOf(ch), text: ch, id: model.pieceToId.get(ch) ?? model.unkId, children: [] }));
  const steps = [];
  for (;;) {
    let best = null;
    for (let i = 0; i + 1 < nodes.length; i += 1) {
      const joined = model.mergeable.get(nodes[i].text + nodes[i + 1].text);
      if (joined !== undefined && model.scores[joined] >= limit && (best === null || model.scores[joined] > best.score)) {
        best = { score: model.scores[joined], i, joined };
      }
    }
    if (best === null) break;
    const { score, i, joined } = best;
    const [left, right] = [nodes[i], nodes[i + 1]];
    const before = nodes.map((n) => n.token);
    const made = { token: [...left.token, ...right.token], text: left.text + right.text, id: joined, children: [left, right] };
    nodes = [...nodes.slice(0, i), made, ...nodes.slice(i + 2)];
    steps.push({ before, position: i, left: left.token, right: right.token, id: joined, number: score, after: nodes.map((n) => n.token) });
  }
  const plain = (n) => ({ token: n.token, id: n.id, children: n.children.map(plain) });
  const reachable = nodes.length === 1;
  const note = reachable && steps.length ? tieNote(model, id) : "";
  return { ...(reachable ? {} : { halves: [] }), ...(note ? { note } : {}), token: pieceBytesOf(piece), id, numbering: "score", reachable, steps,
    parts: nodes.map((n) => n.token), tree: reachable ? plain(nodes[0]) : null, leaves: "characters" };
}
