# Two set-up commands: `make demo` and `make test`. Everything else is optional.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test install bench bench-noise bench-crawl bench-click bench-adapters bench-memory clean-db

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q -e '.[dev]'
	command -v chromium >/dev/null || (apt-get update && apt-get install -y chromium) || $(BIN)/playwright install chromium
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/scrapy demo

test: $(STAMP)
	$(BIN)/python -m pytest -q $(PYTEST_ARGS)

bench: $(STAMP)
	$(BIN)/python bench/prepare_bench.py

# Noise filters on the real corpus (../shared/corpus): rules classifier (and the model when GIGFLOW_NOISE_MODEL
# is set) beside trafilatura and a main-content cleanup.
bench-noise: $(STAMP)
	$(BIN)/python bench/noise_bench.py $(BENCH_ARGS)

bench-crawl: $(STAMP)
	$(BIN)/python bench/crawl_bench.py

bench-click: $(STAMP)
	$(BIN)/python bench/click_bench.py

bench-adapters: $(STAMP)
	$(BIN)/python bench/adapters_bench.py

# Peak memory of preparation + extraction at 1, 5, 10 and 20 MB (BEFORE=REV also measures that git revision first).
bench-memory: $(STAMP)
	$(BIN)/python bench/memory_bench.py $(if $(BEFORE),--before $(BEFORE)) $(BENCH_ARGS)

clean-db:
	rm -rf .gigflow/pgdata
