"""The store owns the SQL of the crawl's tables: ``versions`` (source_versions, bodies, markdowns), ``jobs`` (jobs,
job_events), ``retention`` (pruning old versions and runs), ``mailbox_failures`` and ``delivery`` (the
read API's tables and reads); beside them, what writing jobs needs: ``job_identity`` (the canonical key rules,
pure), ``job_writer`` (those rules against what the source has stored, and the job events) and ``storable`` (what
PostgreSQL can take, checked before storage).

Convention: each owner module ``<name>.py`` reads ONE named-queries file ``<name>.sql`` beside it
(``gigflow.sql.load_queries``: ``-- name: <query>`` sections, procrastinate's ``queries.sql`` the model), one
function per query, returning frozen dataclass rows (built by psycopg's ``class_row``) rather than dicts. Other
rooms call these functions, never the tables. Callers pass a connection, so they keep their own transactions.
"""
