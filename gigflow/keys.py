"""Request meta and crawl stats key names, in one bottom-floor module every room may import (it imports nothing).

Stats are the run's report: counters and figures stored with the run (``crawl_runs.stats``) and shown by people's
tools. None of them carries a decision: what a run's outcome and next crawl are is decided from the run ledger
(``gigflow.runs``), which reads a few of these counters as facts.
"""

# -- request meta ------------------------------------------------------------------------------------------------

JOB = "gigflow_job"  # a job page: the preparation middleware prepares its response
PREPARED = "gigflow_prepared"  # the response's PreparedDocument (set by the preparation middleware)
CAPTURE_HTML = "gigflow_capture_html"  # a click strategy's rendered page, captured as HTML
LISTING_PAGE = "gigflow_listing_page"  # a listing page's request (its page number): kept as a snapshot
REPLAYED = "gigflow_replayed_not_modified"  # a 304 answered from the stored version
REPLAYED_DOCUMENT = "gigflow_replayed_document"  # ... and the stored version's prepared document

# -- stats: pages and versions (the facts a run's outcome and next crawl read) ---------------------------------------

VERSIONS_NEW = "gigflow/versions_new"  # any new source version: the source changed
VERSIONS_UNCHANGED = "gigflow/versions_unchanged"
PAGES_SKIPPED_UNCHANGED = "gigflow/pages_skipped_unchanged"
LISTING_PAGES = "gigflow/listing_pages"
FETCH_FAILURES = "gigflow/fetch_failures"
LISTING_LINKS = "gigflow/listing_links/"  # + listing URL: job links the listing's first page yielded
NOISE_REVIEW_REQUESTED = "gigflow/noise_review_requested"  # preparation asked for a noise review

# -- stats: jobs -----------------------------------------------------------------------------------------------------

JOBS_NEW = "gigflow/jobs_new"
JOBS_UPDATED = "gigflow/jobs_updated"
JOBS_UNCHANGED = "gigflow/jobs_unchanged"
JOBS_GONE = "gigflow/jobs_gone"
WARNINGS = "gigflow/warnings"
FIELDS_UNSTORABLE = "gigflow/fields_unstorable"

# -- stats: the run's state, reported (the ledger holds the state itself) -------------------------------------------

INCOMPLETE = "gigflow/incomplete"  # how many times the run was marked incomplete
QUARANTINED = "gigflow/quarantined"  # why the source was quarantined during the run

# -- stats: health ---------------------------------------------------------------------------------------------------

STATUS = "gigflow/health/status/"  # + HTTP status
CONTENT_TYPE = "gigflow/health/content_type/"  # + base content type of a 2xx response
HEALTH_JOBS = "gigflow/health/jobs"
HEALTH_PAGES_WITHOUT_JOB = "gigflow/health/pages_without_job"
HEALTH_MEAN_CONFIDENCE = "gigflow/health/mean_confidence"
ANTI_BOT = "gigflow/anti_bot"
ANTI_BOT_KIND = "gigflow/anti_bot_kind"
SCRIPT_RENDERED = "gigflow/listing_script_rendered"  # the first listing page that looks rendered by JavaScript
REFUSED = ("gigflow/safe_fetch/refused", "gigflow/safe_fetch/refused_at_connection",
           "gigflow/safe_fetch/too_many_redirects")  # refused (private or denied) fetches and redirects
