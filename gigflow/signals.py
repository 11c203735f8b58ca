"""gigflow's own Scrapy signals."""

# Sent by the storage pipeline after a source's run is committed:
# handler(spider, source_id, configuration_id, outcome, review_requested_by_preparation)
source_finalized = object()

# Sent by the storage pipeline inside the finalizing transaction, before jobs are marked gone, with the run's
# provisional outcome: handler(spider, conn, run_id, outcome). A handler that finds the run unfit to retire jobs
# (drift) calls spider.mark_incomplete(reason, code), and the run becomes ``incomplete:<code>``.
run_outcome_pending = object()
