-- Hours since the first of the failed checks in a row of this URL (none: it has not failed before).
SELECT extract(epoch FROM now() - min(f.checked_at)) / 3600.0 AS hours_ago
FROM link_checks f
WHERE f.canonical_id = %(canonical_id)s AND f.role = %(role)s AND f.url = %(url)s
  AND f.outcome IN ('broken', 'suspect')
  AND f.id > coalesce((SELECT max(o.id) FROM link_checks o
                       WHERE o.canonical_id = %(canonical_id)s AND o.role = %(role)s AND o.url = %(url)s
                         AND o.outcome NOT IN ('broken', 'suspect')), 0)
HAVING count(*) > 0
