-- Jobs this run saw, and live jobs a complete run of this spider would mark gone.
SELECT count(*) FILTER (WHERE last_run_id = %(run_id)s) AS seen,
       count(*) FILTER (WHERE gone_at IS NULL AND last_run_id IS DISTINCT FROM %(run_id)s
                          AND last_run_id IN (SELECT id FROM crawl_runs
                                              WHERE source_id = %(source_id)s AND spider = %(spider)s)) AS at_risk
FROM jobs WHERE source_id = %(source_id)s
