"""gigflow's own Scrapy signals."""

# Sent by the run's finalizer (gigflow.runs.finalize) once the run is committed, for side effects only (lifecycle
# transitions, the noise review request, the after-crawl work): the outcome and the next crawl time are already
# decided and recorded. handler(spider, source_id, configuration_id, outcome, review_requested_by_preparation, run)
# (``run``: the RunLedger; a handler takes only the arguments it names).
source_finalized = object()
