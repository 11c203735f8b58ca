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

# Noise learning (scrapy learn-noise). The model comes from GIGFLOW_NOISE_MODEL, OPENAI_BASE_URL, OPENAI_API_KEY.
NOISE_CLASSIFIER = "auto"  # openai | rules | auto (the model when one is configured, else rules)
NOISE_MODEL = ""  # overrides GIGFLOW_NOISE_MODEL
NOISE_BATCH_SIZE = 20  # regions per model call
NOISE_MODEL_TIMEOUT = 60.0  # seconds per model call
NOISE_REVIEW_RETRIES = 2  # whole-review retries after a failed batch
NOISE_MAX_REGION_CHARS = 20000  # regions with more markup stay in the page and are not sent
NOISE_MAX_REGION_SENT_CHARS = 4000  # markup sent per region (its text and links are sent whole)
