"""Command line: ``python -m bpelab.setup_data`` (what ``make data`` runs) fetches, verifies and places
the four vocabularies; see ``bpelab.tokenizer_data`` for where they come from."""

from bpelab.tokenizer_data import main

if __name__ == "__main__":
    raise SystemExit(main())
