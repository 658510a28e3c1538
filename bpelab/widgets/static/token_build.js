// How one token was built: the merges that make it from its bytes, step by step and as a tree.
//
// The page's twin of bpelab/token_build.py (its docstring says why the rule is this one); the
// Python test tests/test_token_build.py runs this file under Node on thousands of tokens of every
// production vocabulary and holds the two equal, result for result. Results are plain data with
// bytes as arrays of numbers, the shape TokenBuild.as_dict() gives in Python:
//   {token, id, numbering: "rank" | "merge" | "score", reachable, steps, parts, tree}
//   step: {before, position, left, right, id, number, after}; tree node: {token, id, children}
// Bytes stay bytes: a part that is half a character is drawn by the display as it chooses.

/**
 * A rank lookup `(bytes) -> rank | undefined` from a function, or from a Map keyed the way
 * js-tiktoken keys its rankMap (production.js's encoders): the bytes joined with ",".
 */
export function rankLookup(ranks) {
  if (typeof ranks === "function") return ranks;
  if (ranks instanceof Map) return (bytes) => ranks.get(Array.prototype.join.call(bytes, ","));
  throw new TypeError("ranks must be a function of bytes or a Map keyed by the bytes joined with ','");
}

/** Join parts[i] and parts[i + 1] (nodes of the tree) and write the step down. */
function mergeAt(nodes, steps, i, id, number) {
  const before = nodes.map((n) => n.token);
  const left = nodes[i];
  const right = nodes[i + 1];
  nodes.splice(i, 2, { token: [...left.token, ...right.token], id, children: [left, right] });
  steps.push({ before, position: i, left: left.token, right: right.token, id, number, after: nodes.map((n) => n.token) });
}

/**
 * BPE on `bytes` with the ranks below `limit` only (the adjacent pair whose joined bytes rank lowest,
 * leftmost on a tie, as tiktoken merges): the parts it stops at. Two parts are the token's parents.
 * It never makes the whole token: with a limit above the token's rank (a longer token it is part of),
 * the two parts it stops at are the ones that run joined last (token_build.py's merge_below_rank).
 */
function lastParts(bytes, limit, rankOf) {
  const parts = bytes.map((b) => [b]);
  const below = (a, b) => {
    if (a.length + b.length === bytes.length) return Infinity; // the whole token
    const r = rankOf(Uint8Array.from([...a, ...b]));
    return r !== undefined && r < limit ? r : Infinity;
  };
  // pairRanks[i]: the rank of parts[i] and parts[i + 1] joined (Infinity: not below the limit)
  const pairRanks = parts.slice(1).map((p, i) => below(parts[i], p));
  for (;;) {
    let i = -1;
    for (let k = 0; k < pairRanks.length; k += 1) if (pairRanks[k] < (i < 0 ? Infinity : pairRanks[i])) i = k;
    if (i < 0) return parts;
    parts.splice(i, 2, [...parts[i], ...parts[i + 1]]);
    pairRanks.splice(i, 1);
    if (i < pairRanks.length) pairRanks[i] = below(parts[i], parts[i + 1]);
    if (i > 0) pairRanks[i - 1] = below(parts[i - 1], parts[i]);
  }
}

/**
 * A token joined from its own parents (BPE below its rank stops at two parts), or null when it has none.
 * `memo` (a Map) keeps each answer under "own:" and the bytes, and each part made inside a longer token.
 */
function ownTree(bytes, rank, rankOf, memo) {
  const key = `own:${bytes.join(",")}`;
  if (!memo.has(key)) {
    let tree = null;
    if (bytes.length === 1) {
      tree = { token: bytes, id: rank, children: [] };
    } else {
      const parts = lastParts(bytes, rank, rankOf);
      if (parts.length === 2) tree = { token: bytes, id: rank, children: parts.map((p) => made(p, rank, rankOf, memo)) };
    }
    memo.set(key, tree);
  }
  return memo.get(key);
}

/**
 * The tree of a part that BPE below `limit` made: its own parents' where it has them (so it ranks above its
 * children), else the two parts that run joined into it last (in Llama 3, `ерату` inside ` температу`).
 */
function made(bytes, limit, rankOf, memo) {
  const rank = rankOf(Uint8Array.from(bytes));
  const own = ownTree(bytes, rank, rankOf, memo);
  if (own) return own;
  const key = `in ${limit}:${bytes.join(",")}`;
  if (!memo.has(key)) {
    const children = lastParts(bytes, limit, rankOf).map((p) => made(p, limit, rankOf, memo));
    memo.set(key, { token: bytes, id: rank, children });
  }
  return memo.get(key);
}

/**
 * The trees' merged nodes as [id, byte offset] in the order BPE makes them: of the merges whose two parts
 * exist, the lowest rank first, leftmost on a tie (a node made inside a longer token can rank below a child).
 */
function mergesInRankOrder(pieces) {
  const spans = new Map(); // "start,end" -> [node, start]
  for (const [node, start] of mergedNodes(pieces)) spans.set(`${start},${start + node.token.length}`, [node, start]);
  const partsMade = ([node, start], end) => {
    const cut = start + node.children[0].token.length;
    return !spans.has(`${start},${cut}`) && !spans.has(`${cut},${end}`);
  };
  const order = [];
  while (spans.size) {
    let best = null;
    for (const [key, entry] of spans) {
      const end = Number(key.split(",")[1]);
      if (!partsMade(entry, end)) continue;
      if (!best || entry[0].id < best[1][0].id || (entry[0].id === best[1][0].id && entry[1] < best[1][1])) best = [key, entry];
    }
    spans.delete(best[0]);
    order.push([best[1][0].id, best[1][1]]);
  }
  return order;
}

/** Every merged node of the trees with the byte offset it starts at: [node, offset]. */
function mergedNodes(pieces) {
  const found = [];
  let offset = 0;
  for (const piece of pieces) {
    const stack = [[piece, offset]];
    while (stack.length) {
      const [node, start] = stack.pop();
      if (node.children.length) {
        found.push([node, start]);
        stack.push([node.children[0], start], [node.children[1], start + node.children[0].token.length]);
      }
    }
    offset += piece.token.length;
  }
  return found;
}

/** Every merged node of the trees as [id, byte offset], in the order they were learned (ids are that order). */
function mergesInOrder(pieces) {
  return mergedNodes(pieces).map(([node, start]) => [node.id, start]).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
}

/** Apply the merges ([id, byte offset], in order) from the single bytes, writing each step down. */
function replayMerges(bytes, merges, byteId, number) {
  return replayFrom(bytes.map((b) => ({ token: [b], id: byteId(b), children: [] })), merges, number);
}

/** Apply the merges ([id, byte offset], in order) from the leaves `nodes` (bytes, or a word's symbols). */
function replayFrom(nodes, merges, number) {
  const steps = [];
  for (const [id, start] of merges) {
    let i = 0;
    for (let offset = 0; offset !== start; i += 1) offset += nodes[i].token.length;
    mergeAt(nodes, steps, i, id, number(id));
  }
  return { nodes, steps };
}

/**
 * The merges that build `token` (bytes) in a production vocabulary, as lesson 07 recovers them
 * from the ranks, in rank order. A token without parents (Llama 3 has such) comes back with
 * `reachable: false`, the parts BPE below its rank stops at as `parts`, and no tree. `memo` (a Map) may be
 * shared between calls on one vocabulary: each token's pieces are then found once.
 */
export function buildWithRanks(token, ranks, memo = new Map()) {
  const rankOf = rankLookup(ranks);
  const bytes = Array.from(token);
  if (bytes.length === 0) throw new Error("token must be at least one byte");
  const limit = rankOf(Uint8Array.from(bytes));
  if (limit === undefined) throw new Error(`[${bytes}] is not a token of this vocabulary`);
  const byteRanks = new Map();
  for (const b of bytes) {
    const r = rankOf(Uint8Array.of(b));
    if (r === undefined) throw new Error(`the byte ${b} has no rank: this is not a byte-level vocabulary`);
    byteRanks.set(b, r);
  }
  const tree = ownTree(bytes, limit, rankOf, memo);
  const grown = tree ? [tree] : lastParts(bytes, limit, rankOf).map((p) => made(p, limit, rankOf, memo));
  const { nodes, steps } = replayMerges(bytes, mergesInRankOrder(grown), (b) => byteRanks.get(b), (id) => id);
  const reachable = tree !== null;
  return {
    ...(reachable ? {} : { halves: olderHalves(bytes, limit, rankOf) }),
    token: bytes,
    id: limit,
    numbering: "rank",
    reachable,
    steps,
    parts: nodes.map((n) => n.token),
    tree: reachable ? nodes[0] : null,
    leaves: "bytes",
  };
}

/** Every cut of a token into two tokens ranked below `limit`, leftmost cut first (token_build.py's _halves). */
function olderHalves(bytes, limit, rankOf) {
  const found = [];
  for (let k = 1; k < bytes.length; k++) {
    const left = bytes.slice(0, k);
    const right = bytes.slice(k);
    const leftId = rankOf(Uint8Array.from(left));
    const rightId = rankOf(Uint8Array.from(right));
    if (leftId !== undefined && rightId !== undefined && leftId < limit && rightId < limit) {
      found.push({ left, left_id: leftId, right, right_id: rightId });
    }
  }
  return found;
}

/**
 * The merges that built a learner's token, read from its merge log: `merges` is the list of
 * [left id, right id, new id] in the order learned (ids 0–255 are the bytes). The log names each
 * merge's two parts, so the tree is exact; its merges are stepped through in the order learned
 * (leftmost first when one merge happens twice), numbered 1 = first learned.
 */
export function buildFromMerges(tokenId, merges) {
  const parents = new Map();
  const numbers = new Map();
  merges.forEach(([a, b, id], k) => { parents.set(id, [a, b]); numbers.set(id, k + 1); });
  if (!parents.has(tokenId) && !(tokenId >= 0 && tokenId < 256 && Number.isInteger(tokenId))) {
    throw new Error(`id ${tokenId} is not a byte or a merged token of this tokenizer`);
  }
  const treeOf = (id) => {
    if (!parents.has(id)) return { token: [id], id, children: [] };
    const [left, right] = parents.get(id).map(treeOf);
    return { token: [...left.token, ...right.token], id, children: [left, right] };
  };
  const root = treeOf(tokenId);
  const { nodes, steps } = replayMerges(root.token, mergesInOrder([root]), (b) => b, (id) => numbers.get(id));
  return { token: root.token, id: tokenId, numbering: "merge", reachable: true, steps, parts: [root.token], tree: nodes[0], leaves: "bytes" };
}

/**
 * How a word-level tokenizer's symbol ("low</w>") was built, read from its merge log: `merges` is the
 * list of [left, right, merged] in the order learned (explorer.py sends it), ids are positions in
 * `vocabulary` (the first for a symbol listed twice). Bytes are the symbols' UTF-8, as Python's
 * build_from_word_merges; when two merges made one symbol the tree takes the first learned.
 */
export function buildFromWordMerges(symbol, merges, vocabulary) {
  const ids = new Map();
  vocabulary.forEach((known, i) => { if (!ids.has(known)) ids.set(known, i); });
  if (!ids.has(symbol)) throw new Error(`${JSON.stringify(symbol)} is not in this tokenizer's vocabulary: no merge built it`);
  const parents = new Map();
  const numbers = new Map();
  merges.forEach(([left, right, made], k) => {
    if (!parents.has(made)) { parents.set(made, [left, right]); numbers.set(ids.get(made), k + 1); }
  });
  const utf8Of = (text) => Array.from(new TextEncoder().encode(text));
  const treeOf = (s) => {
    if (!parents.has(s)) return { token: utf8Of(s), id: ids.get(s), children: [] };
    return { token: utf8Of(s), id: ids.get(s), children: parents.get(s).map(treeOf) };
  };
  const root = treeOf(symbol);
  const leaves = [];
  const walk = (n) => (n.children.length ? n.children.forEach(walk) : leaves.push({ ...n, children: [] }));
  walk(root);
  const order = mergesInOrder([root]).sort((x, y) => numbers.get(x[0]) - numbers.get(y[0]) || x[1] - y[1]);
  const { nodes, steps } = replayFrom(leaves, order, (id) => numbers.get(id));
  return { token: root.token, id: root.id, numbering: "merge", reachable: true, steps, parts: [root.token], tree: nodes[0], leaves: "symbols" };
}

/** Replaying the steps from the single bytes: the parts after each one (a check, and the stepper's frames). */
export function replay(build) {
  // from the leaves: single bytes, a word's symbols or a piece's characters (one no merge made is a leaf itself)
  let parts = build.steps.length ? build.steps[0].before : build.leaves !== "bytes" ? [build.token] : build.token.map((b) => [b]);
  const frames = [parts];
  for (const step of build.steps) {
    parts = [...parts.slice(0, step.position), [...step.left, ...step.right], ...parts.slice(step.position + 2)];
    frames.push(parts);
  }
  return frames;
}
