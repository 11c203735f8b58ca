"""gigflow's own Scrapy signals."""

# Sent by the storage pipeline after a source's run is committed:
# handler(spider, source_id, configuration_id, outcome, review_requested_by_preparation)
source_finalized = object()
