"""``python -m bpelab.setup_data``: place the offline vocabularies where the course looks (``make data``).

The four tiktoken vocabularies and Mistral's two SentencePiece models. The work is done in
``bpelab.course.tokenizer_data``; this file is only the short command name."""

from bpelab.course.tokenizer_data import main

if __name__ == "__main__":
    raise SystemExit(main())
