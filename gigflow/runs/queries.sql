-- Runs (gigflow.runs.queries): crawl_runs, the crawl lock (a session advisory lock per source and strategy), and
-- the source's run counters and next crawl time (sources.unchanged_runs, sources.next_crawl_at).

-- name: try_crawl_lock
-- One crawl per source and strategy: a session advisory lock, released when its connection ends (so a killed
-- crawl never holds it).
SELECT pg_try_advisory_lock(hashtextextended(%(key)s, 0)) AS locked

-- name: release_crawl_lock
SELECT pg_advisory_unlock(hashtextextended(%(key)s, 0)) AS released

-- name: heartbeat_run
-- No row: the run was closed by someone else (or is not ours); its crawl must stop.
UPDATE crawl_runs SET heartbeat_at = now()
WHERE id = %(run_id)s AND finished_at IS NULL AND owner_token IS NOT DISTINCT FROM %(token)s
RETURNING id

-- name: running_run
-- The unfinished run holding a source and spider (for the message a refused second crawl prints).
SELECT id, source_id, spider, owner_host, owner_pid, started_at, heartbeat_at FROM crawl_runs
WHERE source_id = %(source_id)s AND spider = %(spider)s AND finished_at IS NULL
ORDER BY id DESC LIMIT 1

-- name: start_run
INSERT INTO crawl_runs (source_id, spider, owner_host, owner_pid, owner_token, heartbeat_at)
VALUES (%(source_id)s, %(spider)s, %(host)s, %(pid)s, %(token)s, now())
RETURNING id

-- name: open_runs
-- The unfinished runs of a source and spider with the age of their last heartbeat: the caller (holding the crawl
-- lock) decides which owners are alive; a lock lost with a database connection is not proof of death.
SELECT id, source_id, spider, owner_host, owner_pid, started_at, heartbeat_at,
       extract(epoch FROM now() - coalesce(heartbeat_at, started_at))::double precision AS silent_seconds
FROM crawl_runs
WHERE source_id = %(source_id)s AND spider = %(spider)s AND finished_at IS NULL
ORDER BY id DESC

-- name: abandon_runs
-- Unfinished runs of this source and spider whose owner is gone (the caller holds their crawl lock and checked
-- their owners) are closed.
UPDATE crawl_runs SET finished_at = now(), outcome = 'incomplete:abandoned'
WHERE source_id = %(source_id)s AND spider = %(spider)s AND finished_at IS NULL AND id <> %(run_id)s
  AND id = ANY(%(dead)s)
RETURNING id, source_id, spider, owner_host, owner_pid, started_at, heartbeat_at

-- name: stale_runs
-- Every unfinished run with the age of its last heartbeat, read once by the sweep: it decides which owners are gone
-- (owner_alive) and closes those whose crawl lock it can take (sweep_abandon_runs).
SELECT id, source_id, spider, owner_host, owner_pid, started_at, heartbeat_at,
       extract(epoch FROM now() - coalesce(heartbeat_at, started_at))::double precision AS silent_seconds
FROM crawl_runs
WHERE finished_at IS NULL
ORDER BY id

-- name: sweep_abandon_runs
-- Close, as incomplete:abandoned, the runs the sweep found dead and holds the crawl lock of, in one statement;
-- a run that beat since the sweep read it (its heartbeat moved) is alive after all and stays open.
UPDATE crawl_runs r SET finished_at = now(), outcome = 'incomplete:abandoned'
FROM unnest(%(ids)s::bigint[], %(heartbeats)s::timestamptz[]) AS dead(id, heartbeat_at)
WHERE r.id = dead.id AND r.finished_at IS NULL AND r.heartbeat_at IS NOT DISTINCT FROM dead.heartbeat_at
RETURNING r.id, r.source_id, r.spider, r.owner_host, r.owner_pid, r.started_at, r.heartbeat_at

-- name: finish_run
-- Only the owner of a run still open finishes it: a run closed meanwhile (abandoned by a sweep or a crawl that
-- took over) stays as it was, and the caller sees no row.
UPDATE crawl_runs SET finished_at = now(), stats = %(stats)s, outcome = %(outcome)s
WHERE id = %(run_id)s AND finished_at IS NULL AND owner_token = %(token)s
RETURNING id

-- name: last_complete_run_stats
-- The stats of this spider's last complete run of the source (per-listing job link counts).
SELECT stats FROM crawl_runs
WHERE source_id = %(source_id)s AND spider = %(spider)s AND outcome = 'finished' AND id <> %(run_id)s
ORDER BY id DESC LIMIT 1

-- name: count_unchanged_runs
-- A complete run: count runs in a row whose content did not change; a change resets the count.
UPDATE sources SET unchanged_runs = CASE WHEN %(changed)s THEN 0 ELSE unchanged_runs + 1 END, updated_at = now()
WHERE id = %(source_id)s
RETURNING unchanged_runs, status

-- name: failed_in_a_row
-- How many of the source's latest closed runs (every strategy, this one excluded, at most %(limit)s) were not
-- complete, counted back from the newest to the last complete one.
SELECT count(*) AS failed FROM (
    SELECT bool_or(outcome = 'finished') OVER (ORDER BY id DESC ROWS UNBOUNDED PRECEDING) AS reached_complete
    FROM (SELECT id, outcome FROM crawl_runs
          WHERE source_id = %(source_id)s AND finished_at IS NOT NULL AND id <> %(run_id)s
          ORDER BY id DESC LIMIT %(limit)s) recent
) counted
WHERE NOT reached_complete

-- name: set_next_crawl
-- The one place a source's next crawl time is written: by the run's finalizer, in the transaction that records
-- the run's outcome (gigflow.runs.decide.next_crawl chose the time).
UPDATE sources SET next_crawl_at = %(next_crawl_at)s, updated_at = now()
WHERE id = %(source_id)s
RETURNING next_crawl_at

-- name: latest_run_outcome
-- The newest run's outcome and stats (a scratch database's one run: `sources try`).
SELECT outcome, stats FROM crawl_runs ORDER BY id DESC LIMIT 1
