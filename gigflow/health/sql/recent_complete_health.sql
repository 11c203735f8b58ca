-- The health of this spider's recent complete runs of the source, newest first: the baseline drift is judged by.
SELECT health FROM run_health
WHERE source_id = %(source_id)s AND spider = %(spider)s AND complete AND run_id <> %(run_id)s
ORDER BY run_id DESC LIMIT %(limit)s
