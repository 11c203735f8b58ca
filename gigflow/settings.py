"""Scrapy settings for gigflow. Every limit is a setting: override with `-s NAME=VALUE`."""

BOT_NAME = "gigflow"
SPIDER_MODULES = ["gigflow.spiders"]
NEWSPIDER_MODULE = "gigflow.spiders"

USER_AGENT = "gigflow/0.1 (job vacancy aggregator; respects robots.txt)"
ROBOTSTXT_OBEY = True
ROBOTSTXT_PARSER = "scrapy.robotstxt.ProtegoRobotParser"

# Politeness: one request at a time per registrable domain, at least POLITENESS_MIN_INTERVAL seconds apart.
POLITENESS_MIN_INTERVAL = 30.0
CONCURRENT_REQUESTS = 16
CONCURRENT_REQUESTS_PER_DOMAIN = 1
DOWNLOAD_DELAY = POLITENESS_MIN_INTERVAL  # spiders re-derive it from POLITENESS_MIN_INTERVAL at start
DOWNLOAD_DELAY_JITTER = 0
DOWNLOAD_TIMEOUT = 30
DOWNLOAD_MAXSIZE = 20 * 1024 * 1024
DOWNLOAD_WARNSIZE = 5 * 1024 * 1024
RETRY_TIMES = 2
COOKIES_ENABLED = False
TELNETCONSOLE_ENABLED = False

# Hosts (exact names or IPs) that may be fetched although they resolve to private or loopback addresses.
FETCH_ALLOWED_PRIVATE_HOSTS: list[str] = []

DOWNLOADER_MIDDLEWARES = {
    # A low number: its process_response runs last, after decompression and redirects.
    "gigflow.middlewares.preparation.PreparationMiddleware": 50,
}

ITEM_PIPELINES = {
    "gigflow.pipelines.storage.StoragePipeline": 300,
}

# Where the storage pipeline also writes each version's Markdown ("" to keep it in the database only).
MARKDOWN_DIR = ".gigflow/markdown"

EXTENSIONS = {
    "gigflow.extensions.noise_review.NoiseReviewTrigger": 500,
}

# Noise filter reviews (see README "Noise filters").
NOISE_REVIEW_ON_FINALIZE = True  # each finalized crawl requests a review (skipped cheaply when samples are unchanged)
NOISE_REVIEW_CYCLE_SECONDS = 3600  # at most one automatic review cycle per configuration per hour
NOISE_REVIEW_MAX_DEFERRAL_SECONDS = 600  # a deferred automatic review re-checks at least this often
NOISE_FILTER_MAX_BYTES = 256 * 1024  # a stored filter larger than this is ignored
NOISE_WORKER_CONCURRENCY = 1

FEED_EXPORT_ENCODING = "utf-8"
LOG_LEVEL = "INFO"
TWISTED_REACTOR = "twisted.internet.asyncioreactor.AsyncioSelectorReactor"

# Strategies (see the README's "Strategies" section).
SITEMAP_MAX_DEPTH = 3              # sitemap index levels followed
SITEMAP_MAX_JOB_URLS = 2000        # job URLs per run; more makes the run incomplete (nothing marked gone)
SITEMAP_SKIP_UNMODIFIED = True     # skip URLs whose sitemap lastmod is older than their stored version
CLICK_CHROMIUM_PATH = "/usr/bin/chromium"  # system Chromium; if missing, Playwright's own (`playwright install chromium`)
CLICK_HEADLESS = True
CLICK_MAX_ITEMS = 200              # items clicked per run at most (also the source's max_items); more: incomplete
CLICK_ITEMS_PER_CONTEXT = 20       # items per browser context before it is closed and a fresh one opened
CLICK_TIMEOUT = 15                 # seconds to wait for a click, a detail region or a load-more
CLICK_SETTLE = 0.5                 # seconds a detail region must stay unchanged (no request in flight) to be captured
CLICK_MAX_REVEALS = 50             # load-more / next-page clicks per context
# ATS hosts per provider ("{board}" is replaced by the board id); override any of them, e.g. in tests:
# -s 'ATS_BASE_URLS={"greenhouse": "http://127.0.0.1:8765"}'. Missing providers keep their public host.
ATS_BASE_URLS = {
    "greenhouse": "https://boards-api.greenhouse.io",
    "lever": "https://api.lever.co",
    "lever-eu": "https://api.eu.lever.co",
    "recruitee": "https://{board}.recruitee.com",
    "smartrecruiters": "https://api.smartrecruiters.com",
    "workable": "https://apply.workable.com",
}
ATS_PAGE_SIZE = 100                # postings per page where the provider pages (Lever limit, SmartRecruiters limit)
ATS_MAX_PAGES = 50                 # listing pages per run; more makes the run incomplete
ATS_WORKABLE_ENDPOINT = "widget"   # "widget" (one response with details) or "v3" (POSTed pages with nextPage)
MAILBOX_MAX_MESSAGES = 1000        # new messages read per run; the rest wait for the next run

# Noise learning (scrapy learn-noise). The model comes from GIGFLOW_NOISE_MODEL, OPENAI_BASE_URL, OPENAI_API_KEY.
NOISE_CLASSIFIER = "auto"  # openai | rules | auto (the model when one is configured, else rules)
NOISE_MODEL = ""  # overrides GIGFLOW_NOISE_MODEL
NOISE_BATCH_SIZE = 20  # regions per model call
NOISE_MODEL_TIMEOUT = 60.0  # seconds per model call
NOISE_REVIEW_RETRIES = 2  # whole-review retries after a failed batch
NOISE_MAX_REGION_CHARS = 20000  # regions with more markup stay in the page and are not sent
NOISE_MAX_REGION_SENT_CHARS = 4000  # markup sent per region (its text and links are sent whole)
