# bpelab: one command to set up, one to learn, one to test.
#
#   make lab                         set up, then open JupyterLab on the first lesson
#   make lab LAB_ARGS="--no-browser --port 8890"
#   make test                        set up, then run every test (unit, property, notebooks, browser)
#   make data                        (re)place the offline tokenizer files where tiktoken looks
#   make bench                       the side-by-side benchmark
#
# Setup is idempotent: a second run only re-checks the tokenizer files' hashes.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PY     := $(BIN)/python
STAMP  := $(VENV)/.bpelab-installed
LAB_ARGS ?=
PYTEST_ARGS ?=

# Inline figures vanish under MPLBACKEND=Agg, and stored outputs would then differ.
unexport MPLBACKEND

.PHONY: setup data lab test test-fast bench clean help

help:
	@sed -n '2,9p' Makefile | sed 's/^# \{0,1\}//'

$(PY):
	$(PYTHON) -m venv $(VENV)

$(STAMP): requirements.txt pyproject.toml | $(PY)
	$(PY) -m pip install --disable-pip-version-check -q -r requirements.txt
	$(PY) -m pip install --disable-pip-version-check -q --no-deps --no-build-isolation -e .
	@touch $@

setup: $(STAMP) data

data: $(STAMP)
	$(PY) -m bpelab.setup_data

lab: setup
	$(BIN)/jupyter lab notebooks/00_start_here.ipynb $(LAB_ARGS)

test: setup
	IPYTHONDIR="$$(mktemp -d)" $(PY) -m pytest -n 2 --dist loadfile tests notebooks --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg $(PYTEST_ARGS)

bench: setup
	$(PY) -m bpelab.bench

clean:
	rm -rf $(VENV) test-output .pytest_cache .hypothesis
