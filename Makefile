# bpelab: one command to set up, one to learn, one to test.
#
#   make lab                         set up, then open JupyterLab on the first lesson
#   make lab LAB_ARGS="--no-browser --port 8890"
#   make test                        set up, then run every test (unit, property, notebooks, browser)
#   make data                        (re)place the offline tokenizer files where tiktoken looks
#   make bench                       the side-by-side benchmark
#   make present                     classroom mode: the merge stepper as a full-screen page (Voila)
#   make present PRESENT_ARGS="--no-browser --port=8867"
#   make html                        the course as static web pages in site/ (open site/index.html)
#
# Setup is idempotent: a second run only re-checks the tokenizer files' hashes.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PY     := $(BIN)/python
STAMP  := $(VENV)/.bpelab-installed
LAB_ARGS ?=
# Jupyter refuses to start as root unless told; containers and CI machines often run as root.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)
PRESENT_ARGS ?=
PYTEST_ARGS ?=

# Inline figures vanish under MPLBACKEND=Agg, and stored outputs would then differ.
unexport MPLBACKEND

.PHONY: setup data lab test test-fast bench present html clean help

help:
	@sed -n '2,12p' Makefile | sed 's/^# \{0,1\}//'

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
	$(BIN)/jupyter lab notebooks/00_start_here.ipynb $(ROOT_FLAG) $(LAB_ARGS)

test: setup
	IPYTHONDIR="$$(mktemp -d)" $(PY) -m pytest -n 2 --dist loadfile tests notebooks --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg $(PYTEST_ARGS)

bench: setup
	$(PY) -m bpelab.bench

# Voila runs apps/present_stepper.ipynb as a page without code cells; every control has a text label.
present: setup
	$(BIN)/voila apps/present_stepper.ipynb --theme=light --show_tracebacks=True $(PRESENT_ARGS)

# Outputs as stored (nothing runs); the widget and MathJax scripts are fetched once with npm and cached in build/.
html: setup
	$(PY) -m bpelab.course.html_export

clean:
	rm -rf $(VENV) test-output .pytest_cache .hypothesis site build
