"""Exit codes of ``scrapy crawl`` (gigflow.commands.crawl) and of a batch of sources (gigflow.scheduling.batch),
beside Scrapy's own 1 for a crawl that failed to start. A run's code lives on its ledger (``RunLedger.exit_code``)."""

EXIT_OK = 0
EXIT_FINALIZATION_FAILED = 1  # the run could not be finalized (and Scrapy's 1: a crawl that failed to start)
EXIT_BAD_INPUT = 2  # a source unknown or without the spider's strategy (Scrapy's usage-error code)
EXIT_ALREADY_RUNNING = 3  # the source is already being crawled with that strategy
EXIT_NOTHING_READ = 4  # the run read no page at all: every listing request was refused or failed

# A batch exits with the worst code among its sources: this order.
WORST_FIRST = (EXIT_FINALIZATION_FAILED, EXIT_BAD_INPUT, EXIT_NOTHING_READ, EXIT_ALREADY_RUNNING)


def worst(codes) -> int:
    """The code a process that ran several crawls exits with: the worst of ``codes``, 0 when all are 0."""
    codes = set(codes)
    return next((code for code in WORST_FIRST if code in codes), EXIT_OK)
