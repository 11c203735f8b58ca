-- The newest position of the change feed a reader may be handed now (see api_changes.sql), or no row.
WITH frontier AS (SELECT delivery_feed_frontier() AS xmin)
SELECT xid::text AS xid, src, id FROM (
    (SELECT e.xid, 0 AS src, e.id FROM job_events e, frontier f WHERE e.xid < f.xmin
     ORDER BY e.xid DESC, e.id DESC LIMIT 1)
    UNION ALL
    (SELECT e.xid, 1 AS src, e.id FROM canonical_events e, frontier f WHERE e.xid < f.xmin
     ORDER BY e.xid DESC, e.id DESC LIMIT 1)
) p
ORDER BY xid DESC, src DESC, id DESC
LIMIT 1
