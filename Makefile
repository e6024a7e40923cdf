# cfrviz: the two commands a student needs.
#
#   make lab    install (first time only) and open the course in JupyterLab
#   make test   install the test tools (first time only) and run every test
#
# Also: `make test-fast` skips the slow notebook runs and the browser test;
# both run the lint and type gates first (`make lint`).
# Options: PORT=8890 (default 8888), PYTHON=/path/to/python3.11 (the Python
# used to create .venv), PYTEST_ARGS="-k simplex" (extra pytest arguments).

SHELL := /bin/bash
.DEFAULT_GOAL := help

VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8888
PYTEST_ARGS ?=
# First notebook JupyterLab opens, relative to lessons/.
START := 00_start_here.ipynb

# Stamps record that `pip install` succeeded for the current pyproject.toml,
# so a second `make lab` or `make test` installs nothing.
STAMP_LAB := $(VENV)/.cfrviz-installed
STAMP_TEST := $(VENV)/.cfrviz-installed-test

.PHONY: help lab present test test-fast lint benchmark screenshot

help:
	@echo "make lab        open the course in JupyterLab (installs into .venv the first time)"
	@echo "make present    project one lesson as a Voila dashboard: make present LESSON=04_cfr_on_kuhn"
	@echo "make test       run every test, browser test included"
	@echo "make test-fast  run the lint and type gates, then the quick tests (no notebooks, no browser)"
	@echo "make lint       run only the lint (ruff) and type (mypy) gates"

# Create .venv with python3.11, or python3 if that is 3.11 or newer.
# A candidate must actually run: a pyenv shim can exist without its Python.
$(PY):
	@set -e; \
	if [ -n "$(PYTHON)" ]; then candidates="$(PYTHON)"; else candidates="python3.11 python3"; fi; \
	chosen=""; \
	for c in $$candidates; do \
	  if command -v "$$c" >/dev/null 2>&1 && "$$c" -c 'import sys' >/dev/null 2>&1; then \
	    if "$$c" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then chosen="$$c"; break; fi; \
	    echo "note: $$c is Python $$("$$c" -c 'import platform; print(platform.python_version())'), too old for cfrviz (needs 3.11 or newer)" >&2; \
	  fi; \
	done; \
	if [ -z "$$chosen" ]; then \
	  echo "error: cfrviz needs Python 3.11 or newer, and none was found (tried: $$candidates)." >&2; \
	  echo "       Install Python 3.11, then run make again, or point to it: make $(MAKECMDGOALS) PYTHON=/path/to/python3.11" >&2; \
	  exit 1; \
	fi; \
	echo "Creating $(VENV) with $$chosen (Python $$("$$chosen" -c 'import platform; print(platform.python_version())'))"; \
	"$$chosen" -m venv $(VENV)

$(STAMP_LAB): pyproject.toml | $(PY)
	$(PY) -m pip install --disable-pip-version-check -e .
	@touch $@

$(STAMP_TEST): pyproject.toml | $(PY)
	$(PY) -m pip install --disable-pip-version-check -e '.[test]'
	@touch $@

# Token authentication stays on: the token comes from JUPYTER_TOKEN if set,
# else a fresh random one. Once the server answers, print the link to open.
# port_retries=0: if PORT is taken, fail instead of moving to a port the
# printed link does not name.
lab: $(STAMP_LAB)
	@export JUPYTER_PREFER_ENV_PATH=1; \
	export JUPYTER_TOKEN="$${JUPYTER_TOKEN:-$$($(PY) -c 'import secrets; print(secrets.token_hex(24))')}"; \
	if [ -f "lessons/$(START)" ]; then page="lab/tree/$(START)"; else page="lab"; fi; \
	url="http://127.0.0.1:$(PORT)/$$page?token=$$JUPYTER_TOKEN"; \
	server_pid=$$$$; \
	( for i in $$(seq 120); do \
	    kill -0 $$server_pid 2>/dev/null || exit 0; \
	    if $(PY) -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=1)' \
	         "http://127.0.0.1:$(PORT)/api/status?token=$$JUPYTER_TOKEN" >/dev/null 2>&1; then \
	      printf '\n==================================================================\n'; \
	      printf ' cfrviz is ready. Open this link in your browser:\n\n   %s\n\n' "$$url"; \
	      printf ' Stop the server with Ctrl-C (twice).\n'; \
	      printf '==================================================================\n\n'; \
	      exit 0; \
	    fi; \
	    sleep 1; \
	  done ) & \
	status=0; \
	$(VENV)/bin/jupyter lab --no-browser --ip=127.0.0.1 --port=$(PORT) \
	  --ServerApp.port_retries=0 --ServerApp.root_dir=lessons \
	  $(if $(filter 0,$(shell id -u)),--allow-root) || status=$$?; \
	if [ $$status -ne 0 ] && [ $$status -ne 130 ]; then \
	  echo "JupyterLab stopped with an error (see above). If port $(PORT) is taken, perhaps by another" >&2; \
	  echo "make lab still running, choose another port: make lab PORT=8890" >&2; \
	fi; \
	exit $$status

# Classroom mode: one lesson as a Voila dashboard (code hidden, widgets live), presenter sizes on,
# on 127.0.0.1 with a token. Example: make present LESSON=04_cfr_on_kuhn
LESSON ?= 04_cfr_on_kuhn
present: $(STAMP_LAB)
	@if [ ! -f "lessons/$(LESSON).ipynb" ]; then \
	  echo "error: no lesson lessons/$(LESSON).ipynb; choose one of:" >&2; \
	  ls lessons/*.ipynb | sed 's|lessons/||; s|\.ipynb||; s|^|  |' >&2; exit 1; fi
	@export JUPYTER_PREFER_ENV_PATH=1 CFRVIZ_PRESENTER=1; \
	token="$${JUPYTER_TOKEN:-$$($(PY) -c 'import secrets; print(secrets.token_hex(24))')}"; \
	printf '\n Serving lessons/%s.ipynb as a dashboard. Open:\n\n   http://127.0.0.1:%s/?token=%s\n\n Stop with Ctrl-C.\n\n' "$(LESSON)" "$(PORT)" "$$token"; \
	cd lessons && ../$(VENV)/bin/voila "$(LESSON).ipynb" --no-browser --port=$(PORT) \
	  --Voila.ip=127.0.0.1 --token="$$token" --ServerApp.port_retries=0

test: lint
	$(PY) -m pytest $(PYTEST_ARGS)

test-fast: lint
	$(PY) -m pytest -m "not slow and not browser" $(PYTEST_ARGS)

# Zero findings, configured in pyproject.toml ([tool.ruff], [tool.mypy]).
lint: $(STAMP_TEST)
	$(PY) -m ruff check cfrviz tests benchmarks tools
	$(PY) -m mypy

# Refresh docs/training_explorer.png (README's picture) from the browser test.
screenshot: $(STAMP_TEST)
	CFRVIZ_README_SCREENSHOT=1 $(PY) -m pytest tests/test_browser.py -k training_explorer

# Side-by-side timings quoted in README (see benchmarks/).
benchmark: $(STAMP_LAB)
	$(PY) benchmarks/bench_regret_matching.py
	$(PY) benchmarks/bench_explorer.py
	$(PY) benchmarks/bench_views.py
	$(PY) benchmarks/bench_solvers.py
