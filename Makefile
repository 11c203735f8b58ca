# Two set-up commands: `make demo` and `make test`. Everything else is optional.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test test-fast install deploy scrapyd docs docs-serve bench bench-noise bench-noise-dev bench-noise-order bench-crawl bench-click bench-adapters bench-scale bench-storage bench-fields bench-memory bench-dedupe bench-faults bench-startup bench-search bench-api screenshots clean-db

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q -e '.[dev]'
	command -v chromium >/dev/null || (apt-get update && apt-get install -y chromium) || $(BIN)/playwright install chromium
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/scrapy demo
	@echo ""
	@echo "Review it in the browser:  $(BIN)/scrapy ui   then open http://127.0.0.1:8000/sources/demo"
	@echo "(runs, jobs with their evidence, and 'review the noise decisions' for the learned filter)"

# PNGs of each review app page (demo data: run `make demo` first) into docs/screenshots/.
screenshots: $(STAMP)
	$(BIN)/python docs/screenshots.py

# The whole suite on TEST_WORKERS processes (pytest-xdist); each worker creates and drops its own test database.
# Four on two cores: many tests wait (servers, intervals, the browser) and the extra workers fill those waits (warm,
# one run each: 1066 tests in 165 s on three workers, 130-145 s on four).
# Compiled modules in .pycache/ (outside the source folders), written even where PYTHONDONTWRITEBYTECODE is set: the
# workers' collection rewrites every test module's asserts, and each `scrapy` process the tests start compiles what
# it imports, again and again without a cache (about a tenth of the suite's CPU time).
TEST_WORKERS ?= 4
test: $(STAMP)
	PYTHONDONTWRITEBYTECODE= PYTHONPYCACHEPREFIX="$(CURDIR)/.pycache" \
		$(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadgroup $(PYTEST_ARGS)

# The pure tests: no database, no scrapy process, no browser (about a minute on one process).
test-fast: $(STAMP)
	$(BIN)/python -m pytest -q -m "not db and not e2e" $(PYTEST_ARGS)

# Build the egg in a temporary folder and add it to SCRAPYD_URL (or every node in SCRAPYD_NODES).
deploy: $(STAMP)
	$(BIN)/scrapy deploy $(if $(SCRAPYD_URL),--url $(SCRAPYD_URL))

# scrapyd with its state (eggs, logs, job database) in SCRAPYD_HOME, outside the checkout, and the crawls' database
# from `scrapy db url` (the embedded server, or GIGFLOW_DATABASE_URL). Then: make deploy SCRAPYD_URL=http://127.0.0.1:6800
SCRAPYD_HOME ?= $(HOME)/.local/state/gigflow-scrapyd
scrapyd: $(STAMP)
	mkdir -p "$(SCRAPYD_HOME)"
	test -f "$(SCRAPYD_HOME)/scrapyd.conf" || cp deploy/scrapyd.conf "$(SCRAPYD_HOME)/scrapyd.conf"
	url="$$($(BIN)/scrapy db url)" && cd "$(SCRAPYD_HOME)" && \
		GIGFLOW_DATABASE_URL="$$url" GIGFLOW_HOME="$${GIGFLOW_HOME:-$(CURDIR)/.gigflow}" "$(CURDIR)/$(BIN)/scrapyd"

# The documentation site (mkdocs, warnings are errors) into site/; docs-serve previews it on 127.0.0.1:8001.
docs: $(STAMP)
	$(BIN)/mkdocs build --strict --quiet

docs-serve: $(STAMP)
	$(BIN)/mkdocs serve --dev-addr 127.0.0.1:8001

# Preparation against trafilatura and bare lxml on the corpus (BEFORE=REV also times that git revision, same run).
bench: $(STAMP)
	$(BIN)/python bench/prepare_bench.py $(if $(BEFORE),--before $(BEFORE)) $(BENCH_ARGS)

# Noise filters on the real corpus (../shared/corpus): rules classifier (and the model when GIGFLOW_NOISE_MODEL
# is set) beside trafilatura and a main-content cleanup.
bench-noise: $(STAMP)
	$(BIN)/python bench/noise_bench.py $(BENCH_ARGS)

# The same bench without our hold-out sites (bench/devset/noise/HOLDOUT): what to run while tuning.
bench-noise-dev: $(STAMP)
	$(BIN)/python bench/noise_bench.py --no-holdout $(BENCH_ARGS)

# Does the filter depend on which sample is read first? Each site learned with each of its pages first.
bench-noise-order: $(STAMP)
	$(BIN)/python bench/noise_bench.py --orders $(BENCH_ARGS)

bench-crawl: $(STAMP)
	$(BIN)/python bench/crawl_bench.py

bench-click: $(STAMP)
	$(BIN)/python bench/click_bench.py

bench-adapters: $(STAMP)
	$(BIN)/python bench/adapters_bench.py
	$(BIN)/python bench/ats_coverage_bench.py

# Listing queries on 1,000 sources x 100 runs and 100,000 jobs; 1,000 sources over 50 loopback hosts crawled by two
# local scrapyd nodes x 2 slots (several sources per process); sources import of 10,000 sources.
bench-scale: $(STAMP)
	$(BIN)/python bench/scale_bench.py $(BENCH_ARGS)

# Storage growth: sources x job pages x daily crawls with 2% changing and a token on every page, before/after.
bench-storage: $(STAMP)
	$(BIN)/python bench/storage_bench.py $(BENCH_ARGS)

# Fields (title, employer, location, date posted, apply URL, salary text, closing date, employment type) on the
# corpus stripped of JSON-LD, the SWDE dev pages and bench/devset/fields (dev and hold-out, per site), beside
# trafilatura's metadata (docs/fields.md; BENCH_ARGS=--show lists misses, --no-sites totals only).
bench-fields: $(STAMP)
	$(BIN)/python bench/fields_bench.py $(BENCH_ARGS)

# Entity resolution on a labelled pair set from ../shared/corpus/ats: precision and recall (BENCH_ARGS=--show).
bench-dedupe: $(STAMP)
	$(BIN)/python bench/dedupe_bench.py $(BENCH_ARGS)

# Search quality (docs/api.md): MRR and nDCG@10 of the read API's search on the corpus jobs for the labelled queries
# in bench/search_queries.json, beside two unweighted single-dictionary baselines (BENCH_ARGS=--show).
bench-search: $(STAMP)
	$(BIN)/python bench/search_bench.py $(BENCH_ARGS)

# Read API latency (docs/api.md): p50/p99 of list, search, item and changes over real HTTP at 100,000 jobs, and rows
# read per request (EXPLAIN ANALYZE).
bench-api: $(STAMP)
	$(BIN)/python bench/api_bench.py $(BENCH_ARGS)

# Peak memory of preparation + extraction at 1, 5, 10 and 20 MB of HTML, plain text, one text line and one HTML
# line (BEFORE=REV also measures that git revision first; BENCH_ARGS="--kind html" for one kind).
bench-memory: $(STAMP)
	$(BIN)/python bench/memory_bench.py --kind all $(if $(BEFORE),--before $(BEFORE)) $(BENCH_ARGS)

# CPU time of a `scrapy` command's start-up and what importtime charges to gigflow's modules (BEFORE=REV: both).
bench-startup: $(STAMP)
	$(BIN)/python bench/startup_bench.py $(if $(BEFORE),--before $(BEFORE)) $(BENCH_ARGS)

# Faults against a private PostgreSQL on its own port (restarted, stopped) and a loopback site: double crawl after a
# restart, jobs wrongly gone, a killed crawl's key, a database gone for good, commands without one (docs/faults.md).
bench-faults: $(STAMP)
	$(BIN)/python bench/faults_bench.py $(BENCH_ARGS)

clean-db:
	rm -rf .gigflow/pgdata
