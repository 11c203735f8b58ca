"""Finishing a crawl run, in one place (docs/architecture.md, "How a run finishes").

- ``queries``: the room's tables (crawl_runs, the crawl lock, ``sources.next_crawl_at`` and ``unchanged_runs``),
  over the named queries of ``queries.sql``; the other modules call its functions, never its SQL.
- ``lock``: one crawl per source and strategy (a session advisory lock), the run's owner and heartbeat.
- ``recovery``: runs whose owner died, found and closed (at a crawl's start and by the sweep).
- ``exits``: the exit codes of ``scrapy crawl``.
- ``ledger``: the typed run ledger on the crawler: the run's state, read and written by every component.
- ``decide``: pure ``decide_outcome()`` and ``next_crawl()``.
- ``finalize``: the run's start, heartbeat and its one finalizer: outcome, gone marks and the next crawl time in one
  transaction, then ``source_finalized`` for side effects only.
"""
