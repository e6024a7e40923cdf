# cfrviz: the two commands a student needs.
#
#   make lab    install (first time only) and open the course in JupyterLab
#   make test   install the test tools (first time only) and run every test
#
# Also: `make test-fast` skips the slow notebook runs and the browser test;
# both run the lint and type gates first (`make lint`).
# Options: PORT=8890 (default 8888), PYTHON=/path/to/python3.11 (the Python
# used to create .venv), PYTEST_ARGS="-k simplex" (extra pytest arguments),
# LESSON=04_cfr_on_kuhn (the lesson `make present` shows).

override SHELL := /bin/bash
.DEFAULT_GOAL := help

# Internal names are set with `override`: a value given on the command line (make VENV=...)
# would otherwise replace them, and they reach commands as text.
override VENV := .venv
override PY := $(VENV)/bin/python
PORT ?= 8888
PYTEST_ARGS ?=
LESSON ?= 04_cfr_on_kuhn

# The options reach the shell only through the environment, as CFRVIZ_<NAME>, and are never
# pasted into a command as text: make would paste LESSON='x"; touch /tmp/pwned; echo "' into
# a command, which the shell would then run.  $(value ...) takes each value as typed (make
# does not run a $(shell ...) inside it), and unexport keeps make from expanding the
# originals to pass them on.  check-port and check-lesson refuse a bad value, saying what
# would be valid, before anything is installed or started; PYTHON is checked where it is used.
override export CFRVIZ_PORT := $(value PORT)
override export CFRVIZ_LESSON := $(value LESSON)
override export CFRVIZ_PYTHON := $(value PYTHON)
override export CFRVIZ_PYTEST_ARGS := $(value PYTEST_ARGS)
unexport PORT LESSON PYTHON PYTEST_ARGS
# Python keeps the bytecode it compiles (__pycache__, git-ignored) even where the machine sets
# PYTHONDONTWRITEBYTECODE: make test starts hundreds of Python processes (kernels, servers,
# pytest's workers), and each would otherwise compile cfrviz and rewrite the tests' asserts
# again (0.4 s a kernel, 6 s a pytest collection).
unexport PYTHONDONTWRITEBYTECODE

# First notebook JupyterLab opens, relative to lessons/.
override START := 00_start_here.ipynb

# Stamps record that `pip install` succeeded for the current pyproject.toml and lock file,
# so a second `make lab` or `make test` installs nothing.  After installing, cfrviz.warm
# compiles the engine's kernels into numba's on-disk cache (a line per kernel, under a minute,
# once), so a lesson's first solve loads compiled code instead of waiting for it.
override STAMP_LAB := $(VENV)/.cfrviz-installed
override STAMP_TEST := $(VENV)/.cfrviz-installed-test

# The exact versions installed, with their hashes (`make lock` rewrites them; tools/lock.py
# says how and why): lab.txt for the course, test.txt for the course and its test tools.
# Every package both name has the same version in both, so `make test` after `make lab` only adds.
override LOCK_LAB := requirements/lab.txt
override LOCK_TEST := requirements/test.txt
# The test set plus the bench extra (OpenSpiel, cvxpy, ECOS, LiteEFG): make benchmark and the
# LiteEFG agreement tests (tests/test_liteefg.py, which .ci/run runs with this installed).
override LOCK_BENCH := requirements/bench.txt
override STAMP_BENCH := $(VENV)/.cfrviz-installed-bench
# The test set plus JupyterHub (requirements/hub.txt) and its proxy, configurable-http-proxy, from
# npm (tools/hub/package-lock.json): a class of simulated students on one hub (make bench-hub,
# tests/test_hub.py, which .ci/run runs with this installed).
override LOCK_HUB := requirements/hub.txt
override STAMP_HUB := $(VENV)/.cfrviz-installed-hub
override PROXY := tools/hub/node_modules/.bin/configurable-http-proxy

.PHONY: help lab present test test-fast test-js lint lock bench-install benchmark hub-install bench-hub screenshot check-port check-lesson

help:
	@echo "make lab        open the course in JupyterLab (installs into .venv the first time)"
	@echo "make present    project one lesson as a Voila dashboard: make present LESSON=04_cfr_on_kuhn"
	@echo "make test       run every test, browser test included"
	@echo "make test-fast  run the lint and type gates, then the quick tests (no notebooks, no browser)"
	@echo "make lint       run only the lint (ruff) and type (mypy) gates"
	@echo "make test-js    run only the front end's JavaScript tests (Node's test runner)"
	@echo "make lock       rewrite requirements/*.txt, the exact versions lab and test install, to the"
	@echo "                newest pyproject.toml allows (then run make test)"
	@echo "make bench-install  add the bench extra (OpenSpiel, LiteEFG: a C++ build, about 3 min) to"
	@echo "                .venv from requirements/bench.txt; make benchmark runs it first"
	@echo "make hub-install  add JupyterHub (requirements/hub.txt) and its proxy (npm ci in tools/hub)"
	@echo "make bench-hub  time classes of 5 to 40 simulated students on one local hub (many minutes)"

# A whole number from 1 to 65535.  The pattern is tested before the arithmetic: bash
# arithmetic on an unchecked string can run commands.
check-port:
	@if ! [[ "$$CFRVIZ_PORT" =~ ^[0-9]{1,5}$$ ]] || (( 10#$$CFRVIZ_PORT < 1 || 10#$$CFRVIZ_PORT > 65535 )); then \
	  printf 'error: PORT must be a whole number from 1 to 65535, e.g. make lab PORT=8890; got %q\n' "$$CFRVIZ_PORT" >&2; \
	  exit 1; \
	fi

# The name of a notebook in lessons/, without .ipynb (no path: lessons/solutions stays out).
check-lesson:
	@if ! [[ "$$CFRVIZ_LESSON" =~ ^[A-Za-z0-9_-]+$$ && -f "lessons/$$CFRVIZ_LESSON.ipynb" ]]; then \
	  printf 'error: no lesson %q in lessons/; choose one of:\n' "$$CFRVIZ_LESSON" >&2; \
	  for f in lessons/*.ipynb; do [ -f "$$f" ] && f="$${f#lessons/}" && echo "  $${f%.ipynb}" >&2; done; \
	  echo "e.g. make present LESSON=04_cfr_on_kuhn" >&2; \
	  exit 1; \
	fi

# Create .venv with python3.11, or python3 if that is 3.11 or newer.
# A candidate must actually run: a pyenv shim can exist without its Python.
# PYTHON must look like a path or a command name: a typo with quotes or a semicolon gets
# a clear message (the value is never parsed by the shell either way).
$(PY):
	@set -e; \
	if [ -n "$$CFRVIZ_PYTHON" ]; then \
	  if ! [[ "$$CFRVIZ_PYTHON" =~ ^[A-Za-z0-9_./+@:-]+$$ ]]; then \
	    printf 'error: PYTHON must be a path or command name (letters, digits and _ . / + @ : -), e.g. PYTHON=/usr/bin/python3.11; got %q\n' "$$CFRVIZ_PYTHON" >&2; \
	    exit 1; \
	  fi; \
	  candidates="$$CFRVIZ_PYTHON"; \
	else candidates="python3.11 python3"; fi; \
	chosen=""; \
	for c in $$candidates; do \
	  if command -v "$$c" >/dev/null 2>&1 && "$$c" -c 'import sys' >/dev/null 2>&1; then \
	    if "$$c" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then chosen="$$c"; break; fi; \
	    echo "note: $$c is Python $$("$$c" -c 'import platform; print(platform.python_version())'), too old for cfrviz (needs 3.11 or newer)" >&2; \
	  fi; \
	done; \
	if [ -z "$$chosen" ]; then \
	  echo "error: cfrviz needs Python 3.11 or newer, and none was found (tried: $$candidates)." >&2; \
	  echo "       Install Python 3.11, then run make again, or point to it: make lab PYTHON=/path/to/python3.11" >&2; \
	  exit 1; \
	fi; \
	echo "Creating $(VENV) with $$chosen (Python $$("$$chosen" -c 'import platform; print(platform.python_version())'))"; \
	"$$chosen" -m venv $(VENV)

# Install lock $(1), then cfrviz itself without dependencies, when the lock was tested on
# .venv's Python (tools/lock.py covers: exit 0).  On another Python (exit 1, after a note saying
# so) install cfrviz$(2) at the newest versions pyproject.toml's ranges allow instead.
# --no-build-isolation: the build backend (setuptools) comes from the lock too, not from a fresh
# download.  pip check then confirms that what is installed satisfies pyproject.toml, which a
# lock older than a change to pyproject.toml would not.  With $(3) = uv (the test lock, which
# holds uv): pip installs the lock's uv first, checked against its hashes, and uv installs the
# rest, the same files with the same hashes checked: 18 s instead of pip's 69 s here.
override define install
@status=0; $(PY) tools/lock.py covers $(1) || status=$$?; \
if [ $$status -eq 0 ] && [ "$(3)" = uv ]; then \
  awk '/^uv==/ { found = 1 } found { print } found && !/\\$$/ { exit }' $(1) >$(VENV)/uv.txt; \
  set -ex; \
  $(PY) -m pip install --disable-pip-version-check --require-hashes --no-deps -r $(VENV)/uv.txt; \
  $(PY) -m uv pip install --python $(PY) --compile-bytecode --require-hashes -r $(1); \
  $(PY) -m uv pip install --python $(PY) --no-deps --no-build-isolation -e .; \
elif [ $$status -eq 0 ]; then \
  set -ex; \
  $(PY) -m pip install --disable-pip-version-check --require-hashes -r $(1); \
  $(PY) -m pip install --disable-pip-version-check --no-deps --no-build-isolation -e .; \
elif [ $$status -eq 1 ]; then \
  set -ex; \
  $(PY) -m pip install --disable-pip-version-check -e '.$(2)'; \
else exit $$status; fi
@$(PY) -m pip check --disable-pip-version-check || { \
  echo "error: the versions installed do not satisfy pyproject.toml (above); if it changed" >&2; \
  echo "       since $(1) was written, run: make lock" >&2; exit 1; }
$(PY) -m cfrviz.warm
@touch $@
endef

$(STAMP_LAB): pyproject.toml $(LOCK_LAB) | $(PY)
	$(call install,$(LOCK_LAB),)

$(STAMP_TEST): pyproject.toml $(LOCK_TEST) | $(PY)
	$(call install,$(LOCK_TEST),[test],uv)

# The bench extra on top of the test set, from its lock (resolved within test.txt, so this only
# adds packages).  pip builds LiteEFG's C++ from its sdist (cmake, about 3 minutes on 2 cores).
$(STAMP_BENCH): pyproject.toml $(LOCK_BENCH) $(STAMP_TEST)
	@status=0; $(PY) tools/lock.py covers $(LOCK_BENCH) || status=$$?; \
	if [ $$status -eq 0 ]; then \
	  set -ex; $(PY) -m pip install --disable-pip-version-check --require-hashes -r $(LOCK_BENCH); \
	elif [ $$status -eq 1 ]; then \
	  set -ex; $(PY) -m pip install --disable-pip-version-check -e '.[test,bench]'; \
	else exit $$status; fi
	@$(PY) -m pip check --disable-pip-version-check || { \
	  echo "error: the versions installed do not satisfy pyproject.toml (above); if it changed" >&2; \
	  echo "       since $(LOCK_BENCH) was written, run: make lock" >&2; exit 1; }
	@touch $@

bench-install: $(STAMP_BENCH)

# JupyterHub from its lock (within test.txt: this only adds packages), and the proxy JupyterHub
# runs, a Node.js program, from tools/hub's package-lock.json with npm ci.
$(STAMP_HUB): pyproject.toml $(LOCK_HUB) $(STAMP_TEST) tools/hub/package-lock.json
	@command -v npm >/dev/null 2>&1 || { \
	  echo "error: npm is not installed; JupyterHub's proxy (configurable-http-proxy) needs Node.js 18+ and npm" >&2; exit 1; }
	@status=0; $(PY) tools/lock.py covers $(LOCK_HUB) || status=$$?; \
	if [ $$status -eq 0 ]; then \
	  set -ex; $(PY) -m pip install --disable-pip-version-check --require-hashes -r $(LOCK_HUB); \
	elif [ $$status -eq 1 ]; then \
	  set -ex; $(PY) -m pip install --disable-pip-version-check -e '.[test,hub]'; \
	else exit $$status; fi
	@$(PY) -m pip check --disable-pip-version-check || { \
	  echo "error: the versions installed do not satisfy pyproject.toml (above); if it changed" >&2; \
	  echo "       since $(LOCK_HUB) was written, run: make lock" >&2; exit 1; }
	cd tools/hub && npm ci --no-audit --no-fund
	$(PROXY) --version
	@touch $@

hub-install: $(STAMP_HUB)

# Classes of 5, 10, 20 and 40 students, each on a fresh hub: many minutes on 2 cores, so not part
# of make benchmark.  docs/CLASSROOM.md's sizing table comes from it.
bench-hub: $(STAMP_HUB)
	$(PY) benchmarks/bench_hub.py

# Resolve afresh: the newest versions pyproject.toml allows, for every Python tools/lock.py
# names, with hashes.  uv (a test tool) resolves; run make test afterwards.
lock: | $(PY)
	$(PY) tools/lock.py compile

# Whether the server on CFRVIZ_PORT answers, asked with the token in a header read from the
# environment: a command line (readable by every local user with ps) never holds the token.
override READY := import os, urllib.request as u; u.urlopen(u.Request("http://127.0.0.1:%s/api/status" % os.environ["CFRVIZ_PORT"], headers={"Authorization": "token " + os.environ["JUPYTER_TOKEN"]}), timeout=1)

# Token authentication stays on: the token comes from JUPYTER_TOKEN if set,
# else a fresh random one, and reaches the server through that environment variable only.
# Once the server answers, print the link to open.
# port_retries=0: if PORT is taken, fail instead of moving to a port the
# printed link does not name.
# jupyter/jupyter_lab_config.json: a saved lesson keeps, in each widget's place, a line saying
# to run the cell again (cfrviz.jupyter_hooks; a reopened lesson would otherwise show "Error
# displaying widget: model not found"), and three warnings that are not the student's business
# go (notebook_shim, which only reads old notebook-server settings, no longer touches the
# deprecated ServerApp.token; no websocket keep-alive pings on this local connection, whose
# default timeout tornado rejects; kernels talk over local sockets, not unencrypted TCP).
# voila's server extension is off: make present runs voila on its own, and it took 0.45 s of
# CPU at each server start.  (jupyter_lsp's stays: JupyterLab's page asks it for /lsp/status.)
# A lesson's kernel (250-370 MB) is shut down once no page has been connected to it and it has
# run nothing for 30 minutes; a kernel with a lesson open, or running a cell, never is.
# jupyter/lab-settings/overrides.json turns off the news pop-up.  The lessons are trusted
# first (quietly: its first run would announce the key it writes), so JupyterLab opens them
# without a warning.  The tests' JupyterLab (tests/_browser.py) gets the same two files.
lab: check-port $(STAMP_LAB)
	@export JUPYTER_PREFER_ENV_PATH=1; \
	$(VENV)/bin/jupyter trust --log-level=WARN lessons/*.ipynb >/dev/null; \
	export JUPYTER_TOKEN="$${JUPYTER_TOKEN:-$$($(PY) -c 'import secrets; print(secrets.token_hex(24))')}"; \
	if [ -f "lessons/$(START)" ]; then page="lab/tree/$(START)"; else page="lab"; fi; \
	url="http://127.0.0.1:$$CFRVIZ_PORT/$$page?token=$$JUPYTER_TOKEN"; \
	server_pid=$$$$; \
	( for i in $$(seq 120); do \
	    kill -0 $$server_pid 2>/dev/null || exit 0; \
	    if $(PY) -c '$(READY)' >/dev/null 2>&1; then \
	      printf '\n==================================================================\n'; \
	      printf ' cfrviz is ready. Open this link in your browser:\n\n   %s\n\n' "$$url"; \
	      printf ' This terminal now runs the server: use a second terminal for other\n'; \
	      printf ' commands (make test). Stop the server with Ctrl-C (twice).\n'; \
	      printf '==================================================================\n\n'; \
	      exit 0; \
	    fi; \
	    sleep 1; \
	  done ) & \
	status=0; \
	$(VENV)/bin/jupyter lab --no-browser --ip=127.0.0.1 --port="$$CFRVIZ_PORT" \
	  --ServerApp.port_retries=0 --ServerApp.root_dir=lessons \
	  --config="$$PWD/jupyter/jupyter_lab_config.json" \
	  --LabApp.app_settings_dir="$$PWD/jupyter/lab-settings" \
	  $(if $(filter 0,$(shell id -u)),--allow-root) || status=$$?; \
	if [ $$status -ne 0 ] && [ $$status -ne 130 ]; then \
	  echo "JupyterLab stopped with an error (see above). If port $$CFRVIZ_PORT is taken, perhaps by another" >&2; \
	  echo "make lab still running, choose another port: make lab PORT=8890" >&2; \
	fi; \
	exit $$status

# Classroom mode: one lesson as a Voila dashboard (code hidden, widgets live), presenter sizes on,
# on 127.0.0.1 with a token. Example: make present LESSON=04_cfr_on_kuhn
# The token reaches Voila as JUPYTER_TOKEN, never as --token=... on its command line:
# auto_token switches authentication on and jupyter_server's identity provider reads the
# token from JUPYTER_TOKEN (without auto_token or a token, Voila serves without one).
# jupyter/voila.json and voila.py (Voila reads them from the folder config_file_paths names):
# kernels over local sockets, not unencrypted TCP, their files in /tmp (a socket's path must
# stay under 104 characters, which macOS's per-user temporary folder would pass); no websocket
# keep-alive pings (as for make lab); a page's kernel shuts down when the page is closed or reloaded (voila.py), and a
# kernel no page has been connected to for 2 minutes, idle, is shut down too.  The lesson is
# trusted first, as make lab does (Voila warns of an untrusted notebook on every page load).
present: check-port check-lesson $(STAMP_LAB)
	@export JUPYTER_PREFER_ENV_PATH=1 CFRVIZ_PRESENTER=1; \
	$(VENV)/bin/jupyter trust --log-level=WARN "lessons/$$CFRVIZ_LESSON.ipynb" >/dev/null; \
	export JUPYTER_TOKEN="$${JUPYTER_TOKEN:-$$($(PY) -c 'import secrets; print(secrets.token_hex(24))')}"; \
	printf '\n Serving lessons/%s.ipynb as a dashboard. Open:\n\n   http://127.0.0.1:%s/?token=%s\n\n Stop with Ctrl-C.\n\n' "$$CFRVIZ_LESSON" "$$CFRVIZ_PORT" "$$JUPYTER_TOKEN"; \
	config="$$PWD/jupyter"; \
	cd lessons && ../$(VENV)/bin/voila "$$CFRVIZ_LESSON.ipynb" --no-browser --port="$$CFRVIZ_PORT" \
	  --Voila.ip=127.0.0.1 --Voila.auto_token=True --ServerApp.port_retries=0 \
	  --Voila.config_file_paths="$$config"

# PYTEST_ARGS reaches pytest as PYTEST_ADDOPTS, which pytest splits like a shell (quotes
# work) without running anything in it.  Three streams run at once.  The browser tests that time
# a rate or load the machine (marked timed: the lessons with a Play, the Play and load tests) run
# one at a time in the foreground; the other browser tests run one at a time beside them, at
# nice 10, so that a timed page gets most of the CPU when both want it; the tests that drive no
# browser run beside both at nice 15, on every core (pytest-xdist, up to four workers; a worker
# holds a kernel and numba, about 400 MB), taking the CPU the pages leave: a browser test mostly
# waits on its page (about two thirds of one core for the whole browser suite).  The other two
# streams' reports go to artifacts/test-browser.log and artifacts/test-not-browser.log (follow
# them with tail -f) and are printed after the timed tests'.  Every stream runs even if another
# fails; "no tests collected" (exit 5, a PYTEST_ARGS such as -k that selects none of one stream)
# is not a failure.  Each stream ends with its slowest tests, so that a CI log says where the
# minutes went.
override PARALLEL := -n auto --maxprocesses 4
override DURATIONS := --durations=15 --durations-min=5
override NOT_BROWSER_LOG := artifacts/test-not-browser.log
override BROWSER_LOG := artifacts/test-browser.log
test: lint test-js
	@export PYTEST_ADDOPTS="$${PYTEST_ADDOPTS:+$$PYTEST_ADDOPTS }$$CFRVIZ_PYTEST_ARGS"; \
	ok() { [ $$1 -eq 0 ] || [ $$1 -eq 5 ]; }; \
	mkdir -p artifacts; \
	echo "nice -n 15 $(PY) -m pytest $(PARALLEL) -m 'not browser' >$(NOT_BROWSER_LOG), beside:"; \
	nice -n 15 $(PY) -m pytest $(PARALLEL) $(DURATIONS) -m "not browser" >$(NOT_BROWSER_LOG) 2>&1 & \
	other=$$!; \
	echo "nice -n 10 $(PY) -m pytest -m 'browser and not timed' >$(BROWSER_LOG), beside:"; \
	nice -n 10 $(PY) -m pytest $(DURATIONS) -m "browser and not timed" >$(BROWSER_LOG) 2>&1 & \
	pages=$$!; trap 'kill $$other $$pages 2>/dev/null' INT TERM; \
	echo "$(PY) -m pytest -m 'browser and timed'"; \
	timed=0; $(PY) -m pytest $(DURATIONS) -m "browser and timed" || timed=$$?; \
	browser=0; wait $$pages || browser=$$?; \
	first=0; wait $$other || first=$$?; \
	echo "---- $(BROWSER_LOG): $(PY) -m pytest -m 'browser and not timed' ----"; \
	cat $(BROWSER_LOG); \
	echo "---- $(NOT_BROWSER_LOG): $(PY) -m pytest $(PARALLEL) -m 'not browser' ----"; \
	cat $(NOT_BROWSER_LOG); \
	ok $$first && ok $$browser && ok $$timed

test-fast: lint test-js
	PYTEST_ADDOPTS="$${PYTEST_ADDOPTS:+$$PYTEST_ADDOPTS }$$CFRVIZ_PYTEST_ARGS" $(PY) -m pytest $(PARALLEL) -m "not slow and not browser"

# The front ends' JavaScript (cfrviz/widgets/*.js): a syntax check, then their unit tests
# under Node's own test runner (tests/js/, a DOM and plotly shim of our own, no npm packages;
# a few seconds).  Node 18 or later.  Without node they are reported as skipped, except in
# CI (CI=1, as .ci/run sets), where that is a failure.
override JS := $(wildcard cfrviz/widgets/*.js)
test-js:
	@if command -v node >/dev/null 2>&1; then \
	  for file in $(JS); do node --check "$$file" || exit 1; done; \
	  node --test --test-reporter=spec tests/js/; \
	elif [ -n "$${CI:-}" ]; then \
	  echo "make test-js: node is not installed; the JavaScript tests (tests/js/) need Node.js 18+" >&2; \
	  exit 1; \
	else \
	  echo "SKIPPED the JavaScript tests (tests/js/): node is not installed (Node.js 18+ runs them)"; \
	fi

# Zero findings, configured in pyproject.toml ([tool.ruff], [tool.mypy]).
lint: $(STAMP_TEST)
	$(PY) -m ruff check cfrviz tests benchmarks tools
	$(PY) -m mypy

# Refresh docs/training_explorer.png (README's picture) from the browser test.
screenshot: $(STAMP_TEST)
	CFRVIZ_README_SCREENSHOT=1 $(PY) -m pytest tests/test_browser.py -k training_explorer

# Side-by-side timings, each script writing its section of benchmarks/RESULTS.md.
# bench_browser.py drives JupyterLab in Chromium, as the browser tests do: the test tools.
benchmark: $(STAMP_BENCH)
	$(PY) benchmarks/bench_regret_matching.py
	$(PY) benchmarks/bench_explorer.py
	$(PY) benchmarks/bench_views.py
	$(PY) benchmarks/bench_solvers.py
	$(PY) benchmarks/bench_vector_cfr.py
	$(PY) benchmarks/bench_liteefg.py
	$(PY) benchmarks/bench_lp.py
	$(PY) benchmarks/bench_deep_cfr.py
	$(PY) benchmarks/bench_browser.py
