"""The store owns the SQL of the crawl's tables: ``versions`` (source_versions, bodies, markdowns), ``jobs`` (jobs,
job_events) and ``retention`` (pruning old versions).

One function per query, its SQL in ``sql/<name>.sql`` beside it. Callers pass a connection, so they keep their
own transactions.
"""
