-- One page of the change feed after the position (xid, src, id): job events (src 0) and canonical events
-- (src 1) in (xid, src, id) order, each with what a client needs. Only events of transactions older than the
-- oldest one of this database still running (delivery_feed_frontier, migration 0080) are handed out: all have
-- committed or aborted, so no event can later appear behind a position already handed out (sequence ids alone
-- are assigned at insert, not at commit, and would let a slow transaction's event slip behind a cursor).
WITH frontier AS (SELECT delivery_feed_frontier() AS xmin),
positions AS (
    SELECT xid, src, id FROM (
        (SELECT e.xid, 0 AS src, e.id FROM job_events e, frontier f
         WHERE e.xid < f.xmin
           AND (e.xid, e.id) > (%(xid)s::xid8, CASE WHEN %(src)s = 0 THEN %(id)s ELSE 9223372036854775807 END)
         ORDER BY e.xid, e.id LIMIT %(limit)s)
        UNION ALL
        (SELECT e.xid, 1 AS src, e.id FROM canonical_events e, frontier f
         WHERE e.xid < f.xmin
           AND (e.xid, e.id) > (%(xid)s::xid8, CASE WHEN %(src)s = 1 THEN %(id)s ELSE 0 END)
         ORDER BY e.xid, e.id LIMIT %(limit)s)
    ) p
    ORDER BY xid, src, id LIMIT %(limit)s
)
SELECT p.xid::text AS xid, p.src, p.id,
       coalesce(je.kind, ce.kind) AS kind,
       coalesce(ce.canonical_id, l.canonical_id) AS canonical_id,
       je.job_id, j.source_id, coalesce(je.fields, '{}') AS fields,
       CASE WHEN p.src = 1 THEN ce.detail ELSE jsonb_build_object('run_id', je.run_id) END AS detail,
       coalesce(je.at, ce.at) AS at
FROM positions p
LEFT JOIN job_events je ON p.src = 0 AND je.id = p.id
LEFT JOIN jobs j ON j.id = je.job_id
LEFT JOIN canonical_links l ON l.job_id = je.job_id
LEFT JOIN canonical_events ce ON p.src = 1 AND ce.id = p.id
ORDER BY p.xid, p.src, p.id
