"""Source lifecycle, health and drift: per-run health figures, drift detectors against the source's own recent
complete runs, anti-bot detection, status transitions with their history, and repairs tried on stored listing
snapshots. Connected to crawls by a Scrapy extension and a downloader middleware (see README "Source lifecycle")."""

from gigflow.keys import LISTING_PAGE, SCRIPT_RENDERED  # noqa: F401  (their names live in gigflow.keys)
