// Reads {tokenizers, texts, byteCases} as JSON on stdin and answers on stdout what the static
// explorer computes (tests/test_js_explorer.py compares with Python): for each word-level
// tokenizer description (what explorer.py sends the page) and text, the split pieces, ids, token
// pieces and count line; for each byte case ({pieces, text}), the count line.
import { encodeWordLevel, cutWords } from "../../bpelab/widgets/static/word_level.js";
import { summary } from "../../bpelab/widgets/static/count_line.js";

let input = "";
for await (const chunk of process.stdin) input += chunk;
const { tokenizers, texts, byteCases } = JSON.parse(input);
const words = tokenizers.map((tokenizer) =>
  texts.map((text) => {
    const { ids, pieces } = encodeWordLevel(tokenizer, text);
    return {
      split: cutWords(text, tokenizer.split),
      ids,
      pieces,
      summary: summary(text, ids, pieces, { wordLevel: true, wordUnit: tokenizer.wordUnit }),
    };
  }),
);
const bytes = byteCases.map(({ text, pieces }) => summary(text, pieces.map((_, i) => i), pieces));
process.stdout.write(JSON.stringify({ words, bytes }));
