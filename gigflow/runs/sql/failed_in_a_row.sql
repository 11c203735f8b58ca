-- How many of the source's latest closed runs (every strategy, this one excluded, at most %(limit)s) were not
-- complete, counted back from the newest to the last complete one.
SELECT count(*) AS failed FROM (
    SELECT bool_or(outcome = 'finished') OVER (ORDER BY id DESC ROWS UNBOUNDED PRECEDING) AS reached_complete
    FROM (SELECT id, outcome FROM crawl_runs
          WHERE source_id = %(source_id)s AND finished_at IS NOT NULL AND id <> %(run_id)s
          ORDER BY id DESC LIMIT %(limit)s) recent
) counted
WHERE NOT reached_complete
