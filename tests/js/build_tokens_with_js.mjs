// Reads a JSON request on stdin and answers on stdout what token_build.js builds (tests/test_token_build.py
// compares with Python): {tiktoken: path of a .tiktoken file, tokens: [base64, ...]} builds each token
// with the file's ranks, keyed as js-tiktoken keys them; {merges: [[a, b, id], ...], ids: [...]} builds
// a learner's tokens from its merge log; {symbols, wordMerges: [[l, r, merged]], vocabulary} a word-level
// tokenizer's symbols from its log. One process per vocabulary: the file is read once.
import { readFileSync } from "node:fs";
import { buildFromMerges, buildFromWordMerges, buildWithRanks } from "../../bpelab/widgets/static/token_build.js";

let input = "";
for await (const chunk of process.stdin) input += chunk;
const request = JSON.parse(input);
let builds;
if (request.tiktoken) {
  const ranks = new Map();
  for (const line of readFileSync(request.tiktoken, "utf8").split("\n")) {
    if (!line.trim()) continue;
    const [token, rank] = line.split(" ");
    ranks.set(Array.from(Buffer.from(token, "base64")).join(","), Number(rank));
  }
  builds = request.tokens.map((token) => buildWithRanks(Buffer.from(token, "base64"), ranks));
} else if (request.symbols) {
  builds = request.symbols.map((symbol) => buildFromWordMerges(symbol, request.wordMerges, request.vocabulary));
} else {
  builds = request.ids.map((id) => buildFromMerges(id, request.merges));
}
process.stdout.write(JSON.stringify(builds));
