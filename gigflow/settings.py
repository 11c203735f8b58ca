"""Scrapy settings for gigflow. Every limit is a setting: override with `-s NAME=VALUE`."""

import os

BOT_NAME = "gigflow"
SPIDER_MODULES = ["gigflow.spiders"]
NEWSPIDER_MODULE = "gigflow.spiders"

USER_AGENT = "gigflow/0.1 (job vacancy aggregator; respects robots.txt)"
ROBOTSTXT_OBEY = True

# Politeness: one request at a time per registrable domain, at least POLITENESS_MIN_INTERVAL seconds apart,
# across every process sharing the database (gigflow.middlewares.politeness). Scrapy's own per-slot delay is
# off: the shared limiter owns the timing, and the slot (same key) keeps one connection per key per process.
POLITENESS_MIN_INTERVAL = 30.0  # seconds between request starts per registrable domain, across all processes
CONCURRENT_REQUESTS = 16
CONCURRENT_REQUESTS_PER_DOMAIN = 1
DOWNLOAD_DELAY = 0
DOWNLOAD_DELAY_JITTER = 0
DOWNLOAD_TIMEOUT = 30
DOWNLOAD_MAXSIZE = 20 * 1024 * 1024
DOWNLOAD_WARNSIZE = 5 * 1024 * 1024
RETRY_TIMES = 2
COOKIES_ENABLED = False
# Nothing that can run code in a crawl process listens: Scrapy's remote-control HTTP server (executes posted
# Python), the telnet console (a Python shell on a TCP port) and the SIGUSR2 debugger stay off; EXTENSIONS below
# also removes them outright, so a -s override cannot switch one on by accident.
TELNETCONSOLE_ENABLED = False
REMOTE_CONTROL_ENABLED = False

# Hosts that may be fetched although they resolve to private or loopback addresses: names, IP addresses or
# networks (127.0.0.0/8); a comma-separated string from -s works too.
FETCH_ALLOWED_PRIVATE_HOSTS: list[str] = []

DOWNLOADER_MIDDLEWARES = {
    # A low number: its process_response runs last, after decompression and redirects.
    "gigflow.middlewares.preparation.PreparationMiddleware": 50,
    # Safety first (every URL and hop checked), then conditional GET and the shared robots.txt.
    "gigflow.middlewares.safe_fetch.SafeFetchMiddleware": 60,
    "gigflow.middlewares.conditional_get.ConditionalGetMiddleware": 70,
    "scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware": None,
    "gigflow.middlewares.robots.SharedRobotsMiddleware": 100,
    "scrapy.downloadermiddlewares.redirect.RedirectMiddleware": None,
    # A meta refresh to javascript:/data: is ignored (the page is read), never a failed fetch.
    "scrapy.downloadermiddlewares.redirect.MetaRefreshMiddleware": None,
    "gigflow.middlewares.meta_refresh.SafeMetaRefreshMiddleware": 580,
    # After DefaultHeadersMiddleware (400): Authorization, Cookie and Proxy-Authorization only to the source's origins.
    "gigflow.middlewares.credentials.CredentialScopeMiddleware": 450,
    "gigflow.middlewares.safe_fetch.SafeRedirectMiddleware": 600,
    # Above RetryMiddleware (550): counts statuses and content types for health; a bot challenge stops the run
    # and is never retried nor stored.
    "gigflow.health.middleware.ResponseHealthMiddleware": 580,
    # Last before the download: its process_response sees raw responses first (lease release, Retry-After).
    "gigflow.middlewares.politeness.PolitenessMiddleware": 950,
    # First to see a download error: a host the connecting resolver refused becomes a policy block (no retry).
    "gigflow.middlewares.safe_fetch.ConnectionGuardMiddleware": 960,
}

EXTENSIONS = {
    "scrapy.extensions.telnet.TelnetConsole": None,
    "scrapy.extensions.remote_control.RemoteControl": None,
    "scrapy.extensions.debug.Debugger": None,
    "gigflow.safety.extension.RedactCredentials": 0,
    "gigflow.scheduling.extension.AdaptiveScheduleExtension": 500,
    "gigflow.noise.learn.lifecycle.extension.NoiseReviewTrigger": 510,
    "gigflow.health.extension.HealthExtension": 515,
    "gigflow.maintenance.extension.ResolveAfterCrawl": 520,
    "gigflow.sources.extension.AtsBoardHint": 530,
}

ITEM_PIPELINES = {
    "gigflow.pipelines.model_fields.ModelFieldsPipeline": 250,  # off unless EXTRACT_MODEL is set
    "gigflow.pipelines.storage.StoragePipeline": 300,
}

# Optional model extraction of fields the adapters left empty (each value needs an exact quote from the page).
EXTRACT_MODEL = ""  # overrides GIGFLOW_EXTRACT_MODEL; empty: off
EXTRACT_MODEL_TIMEOUT = 60.0  # seconds per model call
EXTRACT_MODEL_MAX_CHARS = 20000  # Markdown characters of the page sent to the model

# Which converter turns prepared HTML into Markdown: "direct" (our writer over the parsed tree: no second parse,
# fastest), "html-to-markdown" (Rust, reads the tree serialized again) or "markdownify".
MARKDOWN_CONVERTER = "direct"
# HTML bodies larger than this (bytes) are stored as plain text streamed without a tree, with an error in the
# preparation report (make bench-memory: a full preparation costs about 13x the body).
PREPARATION_MAX_BYTES = 10 * 1024 * 1024
# A text/markdown page longer than this (characters) is stored as escaped plain text rather than parsed, rewritten
# and re-emitted (about 20 us a character on one core).
MARKDOWN_PARSE_MAX_CHARS = 512 * 1024
# Trees with more elements than this are converted to Markdown in pieces of about this size (bounded memory); the
# "direct" writer finishes its Markdown in pieces of about this many text nodes, clearing each from the tree.
MARKDOWN_CHUNK_ELEMENTS = 5000
# HTML adapters after JSON-LD read at most this many bytes of a body, with a warning (their trees cost ~20x).
EXTRACTION_MAX_HTML_BYTES = 2 * 1024 * 1024

# Where the storage pipeline also writes each version's Markdown ("" to keep it in the database only); a relative
# folder lies inside GIGFLOW_HOME (files from the old location, $GIGFLOW_HOME/../.gigflow/markdown, are copied in on
# first use). `scrapy db prune` deletes the files of the versions it deletes.
MARKDOWN_DIR = "markdown"

# Noise filter reviews (see README "Noise filters").
NOISE_REVIEW_ON_FINALIZE = True  # each finalized crawl requests a review (skipped cheaply when samples are unchanged)
NOISE_REVIEW_CYCLE_SECONDS = 3600.0  # at most one automatic review cycle per configuration per hour
NOISE_REVIEW_MAX_DEFERRAL_SECONDS = 600.0  # a deferred automatic review re-checks at least this often
NOISE_FILTER_MAX_BYTES = 256 * 1024  # a stored filter larger than this is ignored
NOISE_WORKER_CONCURRENCY = 1  # reviews the noise worker runs at once
NOISE_WORKER_STALLED_SECONDS = 60.0  # a review worker without heartbeat this long is dead: its jobs are retried

FEED_EXPORT_ENCODING = "utf-8"
# `-O items.csv|.jsonl|.json`: formula cells neutralised, bidi controls escaped, like `scrapy jobs --format ...`.
FEED_EXPORTERS = {"csv": "gigflow.exporters.SafeCsvItemExporter", "json": "gigflow.exporters.SafeJsonItemExporter",
                  "jsonlines": "gigflow.exporters.SafeJsonLinesItemExporter",
                  "jsonl": "gigflow.exporters.SafeJsonLinesItemExporter"}
LOG_LEVEL = "INFO"
LOG_FORMATTER = "gigflow.logformatter.ItemFreeLogFormatter"  # items named by URL, never logged whole
TWISTED_REACTOR = "twisted.internet.asyncioreactor.AsyncioSelectorReactor"

# Strategies (see the README's "Strategies" section).
# `scrapy sources import FILE`: at most this many bytes are read, and YAML anchors may expand to at most this many
# values (a 900-byte alias bomb expands to billions).
SOURCES_FILE_MAX_BYTES = 16 * 1024 * 1024
SOURCES_FILE_MAX_NODES = 1_000_000
HREF_MAX_JOB_URLS = 2000           # distinct job links followed per run; more makes the run incomplete (cap_reached)
SITEMAP_MAX_DEPTH = 3              # sitemap index levels followed
SITEMAP_MAX_JOB_URLS = 2000        # job URLs per run; more makes the run incomplete (nothing marked gone)
SITEMAP_SKIP_UNMODIFIED = True     # skip URLs whose sitemap lastmod is older than their stored version
SITEMAP_ROBOTS_REFRESH_SECONDS = 3600.0  # no sitemap found in a robots.txt copy older than this: read it again
CLICK_CHROMIUM_PATH = "/usr/bin/chromium"  # system Chromium; if missing, Playwright's own (`playwright install chromium`)
CLICK_HEADLESS = True  # run Chromium headless
CLICK_MAX_ITEMS = 200              # items clicked per run at most (also the source's max_items); more: incomplete
CLICK_ITEMS_PER_CONTEXT = 20       # items per browser context before it is closed and a fresh one opened
CLICK_TIMEOUT = 15.0               # seconds to wait for a click, a detail region or a load-more
CLICK_SETTLE = 0.5                 # seconds a detail region must stay unchanged (no request in flight) to be captured
CLICK_MAX_REVEALS = 50             # load-more / next-page clicks per context
# ATS endpoint hosts to override per provider ("{board}" is replaced by the board id), e.g. in tests:
# -s 'ATS_BASE_URLS={"greenhouse": "http://127.0.0.1:8765"}'. Providers not named keep their public host
# (gigflow.adapters.ats.PUBLIC_BASE_URLS).
ATS_BASE_URLS: dict = {}  # provider -> endpoint host ({board} replaced); others keep the public host
ATS_PAGE_SIZE = 100                # postings per page where the provider pages (Lever, SmartRecruiters, Jibe, Radancy;
                                   # Workday answers at most 20 a page whatever is asked)
ATS_MAX_PAGES = 50                 # listing pages per run; more makes the run incomplete
# An HTML crawl whose job or apply links point to one supported ATS board (at least this many distinct links)
# records it as a hint in the run's stats, shown by `scrapy sources show`; 0 turns the hint off.
ATS_HINT_MIN_LINKS = 2
ATS_WORKABLE_ENDPOINT = "widget"   # "widget" (one response with details) or "v3" (POSTed pages with nextPage)
MAILBOX_MAX_MESSAGES = 1000        # new messages read per run; the rest wait for the next run
MAILBOX_IMAP_TIMEOUT = 60.0        # seconds an IMAP connection waits for the server before the run fails
MAILBOX_MAX_ATTEMPTS = 3           # a message that fails to read is retried by this many runs, then skipped and listed
# Run integrity: a running crawl beats every CRAWL_HEARTBEAT_SECONDS; an unfinished run silent for
# CRAWL_STALE_SECONDS whose crawl lock is free is closed as incomplete:abandoned by `scrapy sources sweep`.
CRAWL_HEARTBEAT_SECONDS = 10.0  # a running crawl's heartbeat interval
CRAWL_STALE_SECONDS = 300.0  # silence after which `scrapy sources sweep` may close a run
# A crawl whose lock is free still refuses to start while an unfinished run of the source has a heartbeat younger
# than this (its owner's lock may have gone with a lost database connection); an owner on this machine whose
# process is gone is dead at once. Keep it a few heartbeats long.
CRAWL_LIVE_SECONDS = 30.0
# The crawl's database (a PostgreSQL URL; its crawl components take their pool from it in from_crawler). None:
# GIGFLOW_DATABASE_URL, else the embedded server under GIGFLOW_HOME, as every command finds it.
DATABASE_URL = None
# Database loss (docs/faults.md): a crawl whose database stays unreachable this long stops, its run recorded as
# incomplete:database once the database answers; finalizing retries for DATABASE_FINALIZE_WAIT seconds.
# Connection attempts: GIGFLOW_CONNECT_TIMEOUT (3 s), GIGFLOW_POOL_TIMEOUT (5 s), GIGFLOW_DATABASE_WAIT (5 s at
# start-up) from the environment, since commands read them before any settings.
DATABASE_OUTAGE_SECONDS = 60.0
DATABASE_FINALIZE_WAIT = 10.0
# `scrapy crawl SPIDER -a sources=ID,ID,...` (what schedule-due hands a node): sources one process crawls at once,
# each its own crawler; the next to start is one whose politeness key is least busy in the process.
CRAWL_CONCURRENT_SOURCES = 16

# Noise learning (scrapy learn-noise). The model comes from GIGFLOW_NOISE_MODEL, OPENAI_BASE_URL, OPENAI_API_KEY.
NOISE_CLASSIFIER = "auto"  # openai | rules | auto (the model when one is configured, else rules)
NOISE_MODEL = ""  # overrides GIGFLOW_NOISE_MODEL
NOISE_BATCH_SIZE = 20  # regions per model call
NOISE_MODEL_TIMEOUT = 60.0  # seconds per model call
NOISE_REVIEW_RETRIES = 2  # whole-review retries after a failed batch
NOISE_MAX_REGION_CHARS = 150000  # regions with more markup stay in the page (page-builder mega menus run to 50-100 KB)
NOISE_MAX_REGION_SENT_CHARS = 4000  # markup sent per region (its text and links are sent whole)
NOISE_MAX_REGIONS = 2000  # regions (candidates and their parts) one review examines; the rest stay in the page

# --- Politeness and safe fetching (gigflow.politeness, gigflow.middlewares) ---
# Provider hosts are their own keys, so several sources on one ATS share one budget. Each entry: a host (covers
# its subdomains) or registrable domain -> {"per_minute": N} or {"interval": seconds}, optional "concurrency".
POLITENESS_PROVIDER_POLICIES = {
    "boards-api.greenhouse.io": {"per_minute": 15},
    "api.lever.co": {"per_minute": 60},
    "recruitee.com": {"per_minute": 60},
    "api.smartrecruiters.com": {"per_minute": 30},
    "apply.workable.com": {"per_minute": 30},
    # The providers added with issue #25; why each figure: docs/ats.md ("Provider limits").
    "api.ashbyhq.com": {"per_minute": 30},
    "myworkdayjobs.com": {"per_minute": 30},
    "jobs.personio.de": {"per_minute": 30},
    "jobs.personio.com": {"per_minute": 30},
    "teamtailor.com": {"per_minute": 30},
    "bamboohr.com": {"per_minute": 30},
    "breezy.hr": {"per_minute": 30},
    "pinpointhq.com": {"per_minute": 30},
    "core.api.manatal.com": {"per_minute": 30},
}
POLITENESS_DOMAIN_POLICIES: dict = {}  # your overrides, same form; they win over the provider policies
POLITENESS_LEASE_SECONDS = 120.0  # a killed process blocks its key at most this long (> DOWNLOAD_TIMEOUT)
POLITENESS_POLL_SECONDS = 0.1  # how soon to ask again while another process holds the key's lease
POLITENESS_MAX_SLEEP = 5.0  # longest single wait before asking the database again
POLITENESS_BACKOFF_HTTP_CODES = [429, 500, 502, 503, 504]  # statuses that push the key back (Retry-After honoured)
POLITENESS_BACKOFF_BASE = 10.0  # seconds after the first error in a row; doubles per further error
POLITENESS_BACKOFF_MAX = 600.0  # longest backoff of a key, seconds
POLITENESS_BACKOFF_JITTER = 0.25  # the delay is multiplied by 1..1+jitter
POLITENESS_MAX_RETRY_AFTER = 3600.0  # a longer Retry-After is cut to this many seconds
RETRY_HTTP_CODES = [500, 502, 503, 504, 522, 524, 408, 429]
ROBOTS_CACHE_TTL = 86400.0  # seconds a robots.txt in the shared cache stays fresh
ROBOTS_MAX_CRAWL_DELAY = 120.0  # a larger Crawl-delay is capped here

# Adaptive frequency (gigflow.runs.decide.next_crawl, with SOURCE_TRIAL_INTERVAL_FACTOR and SOURCE_RETRY_* below):
# after a complete run next_crawl_at = now + base, multiplied by the factor per unchanged run from the Nth on.
CRAWL_BASE_INTERVAL = 86400.0  # seconds from one crawl of a source to the next
CRAWL_SLOWDOWN_AFTER_UNCHANGED_RUNS = 3  # from the Nth unchanged run on, each one multiplies the interval...
CRAWL_SLOWDOWN_FACTOR = 2.0  # ... by this factor ...
CRAWL_MAX_INTERVAL = 7 * 86400.0  # ... up to this cap (seconds)
# scrapy schedule-due asks this scrapyd to run due sources; the claim keeps a source from being scheduled
# twice while its crawl runs.
SCRAPYD_URL = "http://localhost:6800"  # the scrapyd node when SCRAPYD_NODES is empty
SCRAPYD_PROJECT = "gigflow"  # scrapyd project for schedule-due and deploy
SCHEDULE_CLAIM_SECONDS = 3600.0  # how long a source's claim lasts when its crawl never closes
# Several scrapyd nodes sharing the database: a list of URLs (each optionally URL=SLOTS) or {"URL": slots};
# empty: SCRAPYD_URL alone. A node's slots are its max_proc; its free slots are those minus running and pending.
SCRAPYD_NODES: list = []  # several nodes: URLs (optionally URL=SLOTS) or {URL: slots}
SCRAPYD_NODE_SLOTS = 4  # a node's slots (its max_proc); free = slots - running - pending
SCRAPYD_JOB_SETTINGS: dict = {}  # settings every scheduled job gets (schedule-due's own -s NAME=VALUE win)
SCRAPYD_TIMEOUT = 10.0  # seconds per scrapyd API call
# Sources one scheduled job crawls (in one process, CRAWL_CONCURRENT_SOURCES at a time): a pass claims up to
# free slots x this many due sources and packs them so that jobs share as few politeness keys as possible.
# 1: one source per job. A job renews the claims of the sources still waiting in it.
SCHEDULE_SOURCES_PER_JOB = 16  # due sources one scheduled job crawls in one process
SCHEDULE_DUE_CRON = "* * * * *"  # when `scrapy schedule-due --worker` schedules due sources (procrastinate periodic)
# Job maintenance (gigflow.maintenance): canonical jobs, link checks, freshness, quality, publish gate.
MAINTENANCE_MATCH_THRESHOLD = 0.9  # fuzzy score (0..1) at which two sightings of one employer are one vacancy
MAINTENANCE_BLOCK_LIMIT = 500      # sightings of one employer a fuzzy match compares at most
MAINTENANCE_RESOLVE_AFTER_CRAWL = True  # link a source's new jobs when its crawl is finalized
# Per-job Markdown of payload jobs (ATS boards, feeds): each stored payload is parsed once for all its jobs; at most
# this many jobs of one payload version get a document (0: no cap). After a crawl the work stops at SIGTERM/SIGINT.
MAINTENANCE_MAX_JOBS_PER_PAYLOAD = 5000
MAINTENANCE_CRON = "*/10 * * * *"  # `scrapy jobs worker`: resolve, a link-check tick, the freshness sweep
LINKCHECK_INTERVAL_HOURS = 24.0    # each canonical job's links are checked once per interval, spread over the ticks
LINKCHECK_TICK_SECONDS = 600.0     # the worker's period (match MAINTENANCE_CRON): a tick checks its share
# Every procrastinate queue (maintenance, schedule; noise has NOISE_WORKER_STALLED_SECONDS): a job whose worker
# has not beaten for this long is back in the queue (at a worker's start and every minute).
QUEUE_STALLED_SECONDS = 60.0
LINKCHECK_CLAIM_SECONDS = 900.0  # a job claimed by a sweep that died before checking it is due again after this
LINKCHECK_CONFIRM_HOURS = 6.0      # broken only when failures span at least this long (an outage is not closure)
LINKCHECK_TIMEOUT = 15.0           # seconds per HEAD/GET
LINKCHECK_MAX_REDIRECTS = 5        # same-site redirects followed; an off-site one is recorded as redirected
FRESHNESS_STALE_DAYS = 14.0        # a canonical job not seen for this many days is stale
QUALITY_PUBLISH_MIN_SCORE = 40     # the publish gate's quality floor (0-100)

# Rows per page of `scrapy sources list` and `scrapy jobs` (--after continues from a page's last row).
LISTING_PAGE_SIZE = 100

# Every wire request passes the limiter: the transport does not silently re-send a request whose kept-alive
# connection was reset (gigflow.politeness.download_handler); the failure backs off and Scrapy's retry re-queues it.
DOWNLOAD_HANDLERS = {
    "http": "gigflow.politeness.download_handler.PoliteHTTP11DownloadHandler",
    "https": "gigflow.politeness.download_handler.PoliteHTTP11DownloadHandler",
}
FETCH_DENIED_HOSTS: list[str] = []  # never fetched, nor followed by a redirect (names cover subdomains)
FETCH_RESOLVER_OVERRIDES: dict = {}  # {"name": "ip"} used by the URL guard instead of DNS (tests)
# Authorization, Cookie and Proxy-Authorization (DEFAULT_REQUEST_HEADERS or a spider's) go only to the origins a
# source's configuration names (canonical URL, start URLs, ATS base) and these extra origins ("https://sso.example").
CREDENTIAL_ORIGINS: list[str] = []
FETCH_MAX_REDIRECTS = 5  # redirect hops followed, each checked by the fetch guard
TWISTED_DNS_RESOLVER = "gigflow.safety.resolver.GuardedResolver"  # connects only to addresses the guard admits
# Content types each strategy accepts on a 200 response (strategies not listed are not checked).
FETCH_EXPECTED_CONTENT_TYPES = {
    "href": ["text/html", "application/xhtml+xml"],
    "click": ["text/html", "application/xhtml+xml"],
}

# The review web app (`scrapy ui`). A token is required when it binds anything but loopback.
# Signs the app's CSRF tokens. Empty: a random secret per app process (open forms need a reload after a restart).
UI_SECRET: str  # default: GIGFLOW_UI_SECRET from the environment, else empty
UI_TOKEN: str  # what `scrapy ui` requires; needed to bind beyond loopback. Default: GIGFLOW_UI_TOKEN, else empty
UI_RUNS_SHOWN = 30  # runs on a source page's chart and table
UI_JOBS_SHOWN = 200  # jobs listed on a source page
UI_EVENTS_SHOWN = 50  # status events on a source page; history and canonical events on a job page
UI_LOG_LEVEL = "warning"  # uvicorn's log level

# Read API (`scrapy serve-api`, docs/api.md).
API_PAGE_SIZE = 50  # jobs or changes per page by default
API_PAGE_MAX = 500  # the largest page a client may ask for (limit=)
API_INDEX_INTERVAL = 2.0  # seconds between catch-ups of the list/search read model with the change feed (0: off)
API_SEARCH_NORMALIZATION = 1  # ts_rank_cd normalization: 1 divides by 1 + log(document length)
API_LOG_LEVEL = "warning"  # uvicorn's log level
BACKUP_DIR: str  # `scrapy db backup` folder. Default: GIGFLOW_BACKUP_DIR, else empty (.gigflow/backups)
BACKUP_KEEP = 7  # backups kept by `scrapy db backup` (older ones are deleted); 0 keeps all
WEBHOOK_BATCH = 100  # changes per webhook POST
WEBHOOK_TIMEOUT = 10.0  # seconds a webhook receiver has to connect and answer
WEBHOOK_CRON = "* * * * *"  # how often `scrapy jobs worker` queues a delivery per webhook
WEBHOOK_MAX_ATTEMPTS = 10  # tries of one delivery before the queue gives up (the next tick starts again)
WEBHOOK_RETRY_BASE = 2  # retry waits grow as BASE ** (attempt + 1) seconds: 2, 4, 8, ... (procrastinate)

# --- Source lifecycle, health and drift (gigflow.health; README "Source lifecycle") ---
HEALTH_ENABLED = True  # record per-run health and detect drift
HEALTH_DRIFT_HISTORY_RUNS = 5  # a run is compared with this spider's last N complete runs of the source
HEALTH_DRIFT_MIN_RUNS = 2  # no drift is judged before this many complete runs exist
HEALTH_DRIFT_DENSITY_DROP = 0.3  # a field's share of jobs falls by this much (absolute)
HEALTH_DRIFT_CONFIDENCE_DROP = 0.2  # mean extraction confidence falls by this much
HEALTH_DRIFT_VOLUME_FACTOR = 2.0  # jobs outside [median / F, median * F] of the recent runs (also: trial spikes)
HEALTH_DRIFT_MISSING_SHARE = 0.2  # share of jobs without a title or URL
HEALTH_DRIFT_CHURN_SHARE = 0.5  # new job keys carrying an earlier key's title, per job found
HEALTH_DRIFT_CHURN_MIN = 3  # at least this many such keys before churn counts as drift
HEALTH_LISTING_SNAPSHOTS_KEPT = 5  # listing page snapshots kept per listing URL (for repairs)
SOURCE_TRIAL_RUNS = 3  # complete trial runs before a source becomes active
SOURCE_PROMOTION_MIN_CONFIDENCE = 0.6  # each of them with at least this mean extraction confidence
SOURCE_POLICY_VALID_DAYS = 365.0  # a policy review older than this no longer promotes
SOURCE_QUARANTINE_AFTER = 3  # troubled runs in a row (drift, bot challenge) that quarantine a source
SOURCE_TRIAL_INTERVAL_FACTOR = 3.0  # a trial source's next crawl is this many times further away
SOURCE_RETRY_BASE = 900.0  # a failed or incomplete run is retried after this, doubling per failure in a row
SOURCE_RETRY_MAX = 21600.0  # ... at most this (always sooner than CRAWL_BASE_INTERVAL)
CRAWL_FORCE = False  # set by `scrapy crawl --force`: a quarantined source is crawled by a person's choice
REPAIR_MIN_REPRODUCED = 0.9  # a repair is applied only if it reproduces this share of the last complete links
ANTIBOT_STOP_RUN = True  # a bot challenge ends the run as incomplete:anti_bot (never solved or evaded)
ANTIBOT_MAX_TEXT_CHARS = 600  # a 2xx page with a CAPTCHA widget is a wall only with at most this much visible text

# Storage (gigflow.store.retention, `scrapy db prune`): versions not fetched for this many days are deleted unless
# they are their URL's newest or referenced (jobs, job documents, noise filter samples, listing snapshots); bodies
# no version references go with them. 0 keeps every version.
VERSION_RETENTION_DAYS = 90.0
# `scrapy db prune` also deletes finished crawl runs (and their run_health rows) older than this many days (0: keep
# all), except each source and spider's newest RUN_RETENTION_KEEP runs, its last complete run and runs a job or job
# event names.
RUN_RETENTION_DAYS = 180.0
RUN_RETENTION_KEEP = 30


# Settings whose default is an environment variable (annotated above, without a value): read each time the
# settings are built (Scrapy's get_project_settings reads every name of this module), not once when the module
# was first imported, so that one process can run commands under different environments.
_FROM_ENVIRONMENT = {"UI_SECRET": "GIGFLOW_UI_SECRET", "UI_TOKEN": "GIGFLOW_UI_TOKEN",
                     "BACKUP_DIR": "GIGFLOW_BACKUP_DIR"}


def __getattr__(name: str) -> str:
    if name in _FROM_ENVIRONMENT:
        return os.environ.get(_FROM_ENVIRONMENT[name], "")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_FROM_ENVIRONMENT})
