-- Jobs first seen in this run whose title an earlier job of the source (not seen in this run) carried:
-- pairs of (earlier URL, new URL), the sign of a job URL that changed under the same job.
SELECT DISTINCT ON (new.id) old.url AS old_url, new.url AS new_url
FROM jobs new
JOIN crawl_runs r ON r.id = %(run_id)s
JOIN jobs old ON old.source_id = new.source_id AND old.title = new.title AND old.id <> new.id
             AND old.last_run_id IS DISTINCT FROM %(run_id)s AND old.first_seen < r.started_at
WHERE new.source_id = %(source_id)s AND new.last_run_id = %(run_id)s AND new.first_seen >= r.started_at
  AND new.url IS NOT NULL AND old.url IS NOT NULL
ORDER BY new.id, old.last_seen DESC
LIMIT 500
