# bpelab: one command to set up, one to learn, one to test.
#
#   make lab                         set up, then open JupyterLab on the first lesson
#   make lab LAB_ARGS="--no-browser --port 8890"
#   make update                      bring the course up to date (git), keeping your edits and runs of the lessons
#   make test                        set up with the test packages too, lint, then run every test
#   make lint                        ruff check and ruff format --check over bpelab/, tests/ and conftest.py, mypy over bpelab/
#   make lessons                     re-run every lesson in place (fresh kernel) to re-lock its outputs
#   make lessons ONLY=04             only lesson 04 (ONLY="04 07" for two)
#   make data                        (re)place the offline tokenizer files where tiktoken looks
#   make bench                       the side-by-side benchmark
#   make present                     classroom mode: the merge stepper as a full-screen page (Voila)
#   make present PRESENT_ARGS="--no-browser --port=8867"
#   make html                        the course as static web pages in site/ (open site/index.html)
#   make assignments                 the lessons' exercises as an nbgrader course folder and Otter master notebooks,
#                                    in assignments/ (installs nbgrader and otter-grader: requirements-teach.txt)
#   make pins                        re-compile requirements*.txt from pyproject.toml (keeps today's versions)
#   make test-compat                 every lesson at the lowest (Python 3.11) and newest (3.13) allowed versions, the
#                                    unit tests at the lowest (installed as the README tells pip users; ~20 min)
#
# Setup is idempotent: a second run only re-checks the tokenizer files' hashes. A learner's .venv gets only
# the course's packages (requirements.txt); make assignments adds a teacher's (requirements-teach.txt: nbgrader,
# otter-grader); make test and make lint add those and the test-only ones (requirements-test.txt). All three pin
# every shared package to the same version. Packages are installed with
# uv (itself installed into .venv by pip); INSTALLER=pip uses pip alone.

PYTHON ?= python3
# The pins need this (soupsieve 4.1.2, pulled in by nbconvert, is the strictest; numpy/pandas need 3.11).
MIN_PYTHON := 3.11.5
UV_VERSION := 0.13.9
INSTALLER ?= uv
VENV   := .venv
BIN    := $(VENV)/bin
PY     := $(BIN)/python
COURSE_STAMP := $(VENV)/.bpelab-course
TEACH_STAMP  := $(VENV)/.bpelab-teach
TEST_STAMP   := $(VENV)/.bpelab-test
LAB_ARGS ?=
# Jupyter refuses to start as root unless told; containers and CI machines often run as root.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)
PRESENT_ARGS ?=
PYTEST_ARGS ?=
COMPAT_ARGS ?=
ONLY ?=
UPDATE_ARGS ?=

# Inline figures vanish under MPLBACKEND=Agg, and stored outputs would then differ.
unexport MPLBACKEND

.PHONY: setup setup-test data lab update test test-compat lint lessons pins bench present html assignments clean help

help:
	@sed -n '2,25p' Makefile | sed 's/^# \{0,1\}//'

# Prints "3.11.7" and succeeds when the interpreter is new enough; fails (printing what it is) otherwise.
VERSION_CHECK = -c "import sys; v = sys.version_info; print('%d.%d.%d' % tuple(v[:3])); sys.exit(tuple(v[:3]) < tuple(int(p) for p in '$(MIN_PYTHON)'.split('.')))"

# The interpreter is checked before anything is installed. Too old: uv, when it is on PATH, finds or
# downloads a suitable CPython; without uv, stop and say what to do.
$(PY):
	@found="$$($(PYTHON) $(VERSION_CHECK) 2>/dev/null)"; ok=$$?; \
	if [ $$ok -eq 0 ]; then \
	    echo "creating $(VENV) with Python $$found ($(PYTHON))"; \
	    $(PYTHON) -m venv $(VENV) || { rm -rf $(VENV); \
	        echo "error: '$(PYTHON) -m venv' failed. On Debian/Ubuntu: sudo apt install python3-venv, then run make again." >&2; \
	        exit 1; }; \
	elif command -v uv >/dev/null 2>&1; then \
	    echo "$(PYTHON) is Python $${found:-(not found)}; the course needs $(MIN_PYTHON) or newer."; \
	    echo "creating $(VENV) with a Python >= $(MIN_PYTHON) that uv ($$(command -v uv)) finds or downloads"; \
	    uv venv --quiet --seed --python ">=$(MIN_PYTHON)" $(VENV) || { rm -rf $(VENV); \
	        echo "error: uv could not provide Python >= $(MIN_PYTHON) either. Install one and run: make $(MAKECMDGOALS) PYTHON=/path/to/python3.11" >&2; \
	        exit 1; }; \
	    echo "  $(VENV) uses Python $$($(PY) -c 'import platform; print(platform.python_version())')"; \
	else \
	    echo "error: $(PYTHON) is Python $${found:-(not found)}, and the course's pinned packages need Python $(MIN_PYTHON) or newer." >&2; \
	    echo "Nothing was installed. Either:" >&2; \
	    echo "  - point make at a newer Python:  make $(or $(MAKECMDGOALS),lab) PYTHON=python3.12" >&2; \
	    echo "  - or install uv (https://docs.astral.sh/uv/, or: python3 -m pip install --user uv) and run make again:" >&2; \
	    echo "    uv then provides a suitable Python by itself (uv python install 3.11)" >&2; \
	    echo "  - or install Python $(MIN_PYTHON)+ (python.org, Homebrew, pyenv, or on Ubuntu 22.04 the deadsnakes PPA)" >&2; \
	    exit 1; \
	fi

# One stage per line, so a first-time user never stares at a silent terminal.
# $(call install_pins,<requirements file>)
define install_pins
	@found="$$($(PY) $(VERSION_CHECK))" || { \
	    echo "error: $(VENV) has Python $$found; the pins need $(MIN_PYTHON)+. Delete $(VENV) and run make again." >&2; exit 1; }
	@if [ "$(INSTALLER)" = uv ] && [ ! -x $(BIN)/uv ]; then \
	    echo "installing uv $(UV_VERSION) into $(VENV) with pip (uv installs the pins in seconds)"; \
	    $(PY) -m pip install --disable-pip-version-check -q uv==$(UV_VERSION) \
	        || echo "warning: could not install uv from the package index: falling back to pip, which takes a few minutes"; \
	fi
	@count=$$(grep -c '^[A-Za-z0-9]' $(1)); \
	if [ "$(INSTALLER)" = uv ] && [ -x $(BIN)/uv ]; then \
	    echo "installing $$count pinned packages from $(1) with uv"; \
	    $(BIN)/uv pip install --python $(PY) -q -r $(1) \
	    && echo "installing bpelab itself (editable) with uv" \
	    && $(BIN)/uv pip install --python $(PY) -q --no-deps --no-build-isolation -e .; \
	else \
	    echo "installing $$count pinned packages from $(1) with pip (a few minutes; uv does it in seconds)"; \
	    $(PY) -m pip install --disable-pip-version-check -q -r $(1) \
	    && echo "installing bpelab itself (editable) with pip" \
	    && $(PY) -m pip install --disable-pip-version-check -q --no-deps --no-build-isolation -e .; \
	fi
endef

$(COURSE_STAMP): requirements.txt pyproject.toml | $(PY)
	$(call install_pins,requirements.txt)
	@touch $@

# nbgrader and otter-grader bring Jupyter extensions of their own: nbgrader's pages, jupytext's contents manager
# (which would wrap the one the course's save hook runs in), ipylab, Notebook 7's buttons. They are switched off in
# the venv, so that its JupyterLab stays the learners' one the browser tests drive; the grading commands need none
# of them. The server's file sorts after the packages' own in jupyter_server_config.d, so it is the one that holds.
TEACH_SERVER_OFF := $(VENV)/etc/jupyter/jupyter_server_config.d/zz-bpelab-teach-tools-off.json
define teach_extensions_off
	@echo "switching off the Jupyter extensions nbgrader and otter-grader install (the grading commands need none)"
	@printf '%s\n' '{"ServerApp": {"jpserver_extensions": {"jupyterlab_jupytext": false,' \
	    '"nbgrader.server_extensions.formgrader": false, "nbgrader.server_extensions.validate_assignment": false,' \
	    '"nbgrader.server_extensions.assignment_list": false, "nbgrader.server_extensions.course_list": false}}}' \
	    > $(TEACH_SERVER_OFF)
	@$(BIN)/jupyter labextension disable --level=sys_prefix @jupyter/nbgrader jupyterlab-jupytext ipylab \
	    @jupyter-notebook/lab-extension >/dev/null 2>&1
endef

$(TEACH_STAMP): requirements-teach.txt requirements.txt pyproject.toml | $(PY)
	$(call install_pins,requirements-teach.txt)
	$(teach_extensions_off)
	@touch $(COURSE_STAMP) $@

$(TEST_STAMP): requirements-test.txt requirements-teach.txt requirements.txt pyproject.toml | $(PY)
	$(call install_pins,requirements-test.txt)
	$(teach_extensions_off)
	@touch $(COURSE_STAMP) $(TEACH_STAMP) $@

setup: $(COURSE_STAMP) data

setup-test: $(TEST_STAMP) data

data: $(COURSE_STAMP)
	@echo "preparing tokenizer data (offline vocabularies for tiktoken)"
	@$(PY) -m bpelab.setup_data

# JupyterLab saves widget state with each notebook (so a saved lesson reopens with its widgets) and asks no
# news question: bpelab/course/lab_settings.py writes both into the venv's lab/settings/overrides.json. It also
# enables the course's save hook (bpelab/course/save_hook.py) in the venv's etc/jupyter/jupyter_server_config.d:
# JupyterLab alone saves only the widgets alive in the kernel, so an autosave of a lesson merely opened dropped them.
# And it copies the course's JupyterLab extension (bpelab/course/lab_extension) into the venv's
# share/jupyter/labextensions: the widgets saved in a lesson draw when it opens, however slowly its kernel starts.
# Last, it trusts the lessons (bpelab/course/trust_lessons.py, jupyter trust's notary, in the user's Jupyter data
# folder): JupyterLab draws a widget output of an untrusted notebook only once its cell runs, so a fresh clone
# showed every widget as text on first open.
lab: setup
	@$(PY) -m bpelab.course.lab_settings
	@$(PY) -m bpelab.course.trust_lessons notebooks
	$(BIN)/jupyter lab notebooks/00_start_here.ipynb $(ROOT_FLAG) $(LAB_ARGS)

# A clone's update that keeps the learner's work (bpelab/course/update.py): their changes are committed on their
# branch, then the course's branch is merged, notebooks cell by cell (bpelab/course/notebook_merge.py), where both
# changed a cell the learner's version kept; a file they deleted comes back. Then the new lessons are trusted, and
# setup reinstalls only if the pins changed. UPDATE_ARGS="upstream main" updates from another remote or branch.
update: setup
	$(PY) -m bpelab.course.update $(UPDATE_ARGS)
	@$(PY) -m bpelab.course.trust_lessons notebooks
	@$(MAKE) -s --no-print-directory $(COURSE_STAMP)

lint: $(TEST_STAMP)
	$(BIN)/ruff check bpelab tests conftest.py
	$(BIN)/ruff format --check bpelab tests conftest.py
	$(BIN)/mypy bpelab

test: setup-test
	@$(MAKE) --no-print-directory lint
	IPYTHONDIR="$$(mktemp -d)" $(PY) -m pytest -n 2 --dist loadfile tests notebooks --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg --durations=20 $(PYTEST_ARGS)

# Fresh kernel, in place, widget state kept, no timings: an untouched lesson re-runs to the same bytes.
lessons: setup
	$(PY) -m bpelab.course.lessons $(ONLY)

# One source of truth: the lists in pyproject.toml. Existing pins are kept unless you remove them first;
# the teacher's file is constrained by the course file and the test file by the teacher's, so all three say the same
# version of every shared package.
PIN_FLAGS := --universal --python-version $(MIN_PYTHON) --custom-compile-command "make pins" -q
pins: $(COURSE_STAMP)
	@[ -x $(BIN)/uv ] || $(PY) -m pip install --disable-pip-version-check -q uv==$(UV_VERSION)
	$(BIN)/uv pip compile pyproject.toml --extra course $(PIN_FLAGS) -o requirements.txt
	$(BIN)/uv pip compile pyproject.toml --extra course --extra teach -c requirements.txt $(PIN_FLAGS) -o requirements-teach.txt
	$(BIN)/uv pip compile pyproject.toml --extra course --extra teach --extra test -c requirements-teach.txt $(PIN_FLAGS) -o requirements-test.txt

# Not part of make test (about 20 minutes on a quiet machine): .ci/run runs it after make test. See tests/compat/run_compat.py.
# make test-compat COMPAT_ARGS="3.11 lowest-direct" runs one environment.
test-compat: $(TEST_STAMP)
	$(PY) tests/compat/run_compat.py $(COMPAT_ARGS)

bench: setup
	$(PY) -m bpelab.bench

# Voila runs apps/present_stepper.ipynb as a page without code cells; every control has a text label.
# apps/voila.json: light theme, the page template apps/voila/templates/bpelab (nothing from a CDN), and the
# kernels of closed pages shut down after 10 idle minutes. JUPYTER_PATH is where Voila finds that template.
present: setup
	JUPYTER_PATH="$(CURDIR)/apps$${JUPYTER_PATH:+:$$JUPYTER_PATH}" $(BIN)/voila apps/present_stepper.ipynb \
		--Voila.config_file_paths="$(CURDIR)/apps" $(PRESENT_ARGS)

# Outputs as stored (nothing runs); the widget and MathJax scripts are fetched once with npm and cached in build/.
# First names the lessons that differ from the committed ones (a session's autosave), and how to restore them.
html: setup
	@$(PY) -m bpelab.course.changed_lessons
	$(PY) -m bpelab.course.html_export

# The lessons' exercises, handed out and graded with the course's own checkers (bpelab/course/assignments.py):
# assignments/nbgrader/ is an nbgrader course folder (source/NN_name/NN_name.ipynb, nbgrader_config.py), and
# assignments/otter/NN_name.ipynb are Otter master notebooks. TEACHING.md shows the commands from hand-out to feedback.
assignments: $(TEACH_STAMP) data
	$(PY) -m bpelab.course.assignments

clean:
	rm -rf $(VENV) test-output .pytest_cache .hypothesis site build dist
