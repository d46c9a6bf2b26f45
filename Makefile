# Everything a fresh machine needs is installed from here: CI runs `make test` on a clean clone.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: test lint typecheck cfn-lint pytest demo bench clean openapi

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

test: lint typecheck cfn-lint pytest

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

cfn-lint: $(STAMP)
	$(BIN)/cfn-lint template.yaml

pytest: $(STAMP)
	$(BIN)/pytest

demo: $(STAMP)
	$(BIN)/deckhand demo

bench: $(STAMP)
	$(BIN)/python bench/bigtwo_bench.py
	$(BIN)/python bench/competition_bench.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis out

openapi: $(STAMP)
	$(BIN)/python tools/openapi.py
