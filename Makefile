# HeLa Desktop — the two commands of the README, and a few more.
VENV ?= .venv
export HF_HUB_OFFLINE := 1

.PHONY: run chat test test-fast lint bench-speed bench-locomo bench-gui screenshots bundle check-bundle clean

run:            ## install what is missing, then open the desktop app
	@HELA_VENV=$(VENV) HELA_NEED_WINDOW=1 scripts/bootstrap.sh
	$(VENV)/bin/hela-desktop

chat:           ## install what is missing, then the terminal chat
	@HELA_VENV=$(VENV) scripts/bootstrap.sh
	$(VENV)/bin/hela-desktop chat

test:           ## install what is missing (with test tools), then lint, type-check and run every test
	@HELA_VENV=$(VENV) HELA_EXTRAS=test scripts/bootstrap.sh
	$(MAKE) --no-print-directory lint
	QT_QPA_PLATFORM=offscreen $(VENV)/bin/python -m pytest

test-fast:      ## the same checks, then every test not marked slow (a few minutes less)
	@HELA_VENV=$(VENV) HELA_EXTRAS=test scripts/bootstrap.sh
	$(MAKE) --no-print-directory lint
	QT_QPA_PLATFORM=offscreen $(VENV)/bin/python -m pytest -m "not slow"

lint:           ## ruff (style, imports, complexity <= 15), mypy, and the layout rules of ARCHITECTURE.md
	$(VENV)/bin/ruff check hela_desktop tests scripts
	$(VENV)/bin/python -m mypy
	$(VENV)/bin/python scripts/check_layout.py

bench-speed:
	@HELA_VENV=$(VENV) scripts/bootstrap.sh
	$(VENV)/bin/hela-desktop bench speed

bench-locomo:
	@HELA_VENV=$(VENV) scripts/bootstrap.sh
	$(VENV)/bin/hela-desktop bench locomo ../shared/data/locomo-dev.json

bench-gui:
	@HELA_VENV=$(VENV) scripts/bootstrap.sh
	QT_QPA_PLATFORM=offscreen $(VENV)/bin/hela-desktop bench gui

screenshots:    ## the README's screenshots from the real window under Xvfb: docs/screenshots/
	@HELA_VENV=$(VENV) scripts/bootstrap.sh
	HELA_VENV=$(VENV) scripts/screenshots.sh

bundle:         ## self-contained Linux app folder: packaging/dist/hela-desktop/
	@HELA_VENV=$(VENV) scripts/bootstrap.sh
	packaging/build.sh

check-bundle:   ## build the bundle, then run its doctor and one chat turn offline, clean env
	@HELA_VENV=$(VENV) scripts/bootstrap.sh
	packaging/check_bundle.sh

clean:
	rm -rf build dist *.egg-info .pytest_cache .ruff_cache test-artifacts
