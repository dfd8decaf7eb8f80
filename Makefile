# Every target bootstraps its own tools: uv comes from PyPI into .tools/ when
# the machine has none, and `uv sync --frozen` installs exactly uv.lock.
SHELL := /bin/bash
UV := $(shell command -v uv 2>/dev/null || echo .tools/bin/uv)
PY := .venv/bin/python

.PHONY: run test test-fast bench bench-scale client lint typecheck migrations-check check clean

.tools/bin/uv:
	@echo "[setup] Installing uv into .tools/"
	@python3 -m venv .tools && .tools/bin/pip install --quiet --disable-pip-version-check uv==0.13.8

# Compiled once here: where PYTHONDONTWRITEBYTECODE is set, every process would compile Django
# and the other libraries again as it starts (seconds for each test process and worker).
.venv/.synced: pyproject.toml uv.lock | $(UV)
	@echo "[setup] Creating the virtualenv from uv.lock"
	@$(UV) sync --frozen --quiet --compile-bytecode
	@touch $@

run: .venv/.synced
	@$(PY) -m devstack run

test: .venv/.synced
	@$(PY) -m devstack test $(ARGS)

# The inner loop: no browser, worker, process or fuzz test; the test database kept between runs.
test-fast: .venv/.synced
	@$(PY) -m devstack test-fast $(ARGS)

bench: .venv/.synced
	@$(PY) -m devstack bench $(ARGS)

# A burst of nights on several workers while clients poll (sizes: make bench-scale ARGS=--help).
bench-scale: .venv/.synced
	@$(PY) -m devstack bench-scale $(ARGS)

# frontend/openapi.json and the web app's typed client from it (a test checks they are current).
client: .venv/.synced
	@$(PY) -m devstack.frontend_build client

lint: .venv/.synced
	@.venv/bin/ruff check .
	@.venv/bin/ruff format --check .

typecheck: .venv/.synced
	@.venv/bin/mypy .

migrations-check: .venv/.synced
	@DJANGO_SETTINGS_MODULE=config.settings.test $(PY) manage.py makemigrations --check --dry-run

check: test lint typecheck migrations-check

clean:
	rm -rf .venv .tools staticfiles
