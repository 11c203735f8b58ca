"""Source lifecycle, health and drift: per-run health figures, drift detectors against the source's own recent
complete runs, anti-bot detection, status transitions with their history, and repairs tried on stored listing
snapshots. Connected to crawls by a Scrapy extension and a downloader middleware (see README "Source lifecycle")."""

# Request meta a spider sets on a listing page's request (its page number): the page is kept as a snapshot.
LISTING_PAGE = "gigflow_listing_page"
# Run stat: the first listing page that gave no job link and looks rendered by JavaScript (use click instead).
SCRIPT_RENDERED = "gigflow/listing_script_rendered"
