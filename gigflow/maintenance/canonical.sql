-- Canonical jobs (gigflow.maintenance.canonical): canonical_jobs, canonical_links, canonical_separations,
-- canonical_events and link_checks; resolution, freshness, link checks and the export run these.

-- Resolution: linking sightings (jobs) to canonical jobs, folding and unmerging.

-- name: unlinked_jobs
-- Live per-source jobs not yet linked to a canonical job (oldest first), with their source's company.
SELECT j.id, j.source_id, j.title, j.url, j.external_id, j.parser_key, j.fields, c.name AS company
FROM jobs j
JOIN sources s ON s.id = j.source_id
JOIN companies c ON c.id = s.company_id
LEFT JOIN canonical_links l ON l.job_id = j.id
WHERE l.job_id IS NULL AND j.gone_at IS NULL
  AND (%(source_id)s::text IS NULL OR j.source_id = %(source_id)s)
ORDER BY j.id

-- name: lock_employer
-- Serialises resolution per employer so two workers never open two canonical jobs for one vacancy.
SELECT pg_advisory_xact_lock(hashtextextended('gigflow:canonical:' || %(employer_key)s, 0))

-- name: is_linked
-- Another resolver (a crawl's extension, the worker) may have linked the job since it was read.
SELECT EXISTS (SELECT 1 FROM canonical_links WHERE job_id = %(job_id)s) AS linked

-- name: exact_candidates
-- Canonical jobs with a sighting sharing an exact identity key, except those the job was unmerged from.
SELECT l.canonical_id, l.job_id, l.match_keys
FROM canonical_links l
JOIN canonical_jobs c ON c.id = l.canonical_id
WHERE l.match_keys && %(keys)s::text[] AND c.merged_into IS NULL
  AND NOT EXISTS (SELECT 1 FROM canonical_separations s
                  WHERE s.job_id = %(job_id)s AND s.canonical_id = l.canonical_id)
ORDER BY l.canonical_id, l.job_id

-- name: fuzzy_candidates
-- Live sightings of the same employer (the blocking key), for the fuzzy score; at most %(limit)s.
SELECT l.canonical_id, l.job_id, l.simhash, j.source_id, j.parser_key, j.title, j.fields->>'location' AS location,
       j.fields->>'description' AS description
FROM canonical_jobs c
JOIN canonical_links l ON l.canonical_id = c.id
JOIN jobs j ON j.id = l.job_id
WHERE c.employer_key = %(employer_key)s AND c.merged_into IS NULL AND j.gone_at IS NULL
  AND NOT EXISTS (SELECT 1 FROM canonical_separations s
                  WHERE s.job_id = %(job_id)s AND s.canonical_id = l.canonical_id)
ORDER BY l.canonical_id DESC
LIMIT %(limit)s

-- name: separated
-- Whether an unmerge keeps these two canonical jobs apart (a sighting of one was separated from the other).
SELECT EXISTS (
    SELECT 1 FROM canonical_separations s JOIN canonical_links l ON l.job_id = s.job_id
    WHERE (l.canonical_id = %(a)s AND s.canonical_id = %(b)s) OR (l.canonical_id = %(b)s AND s.canonical_id = %(a)s)
) AS separated

-- name: fold_canonical
-- A canonical job found to be the same vacancy as another: its sightings move there; merged_into remembers it.
WITH moved AS (
    UPDATE canonical_links SET canonical_id = %(into)s,
        evidence = evidence || jsonb_build_array(jsonb_build_object('kind', 'folded', 'from_canonical', %(from)s::bigint))
    WHERE canonical_id = %(from)s
    RETURNING job_id
)
UPDATE canonical_jobs SET merged_into = %(into)s, published_at = NULL WHERE id = %(from)s

-- name: insert_canonical
-- A new canonical job; its first link check falls at a random moment of the check interval (spread out).
INSERT INTO canonical_jobs (employer_key, next_check_at)
VALUES (%(employer_key)s, now() + random() * make_interval(secs => %(spread_seconds)s))
RETURNING id

-- name: insert_link
-- A sighting's link to its canonical job, with the evidence, score, identity keys and simhash.
INSERT INTO canonical_links (job_id, canonical_id, evidence, score, match_keys, simhash)
VALUES (%(job_id)s, %(canonical_id)s, %(evidence)s, %(score)s, %(match_keys)s, %(simhash)s)

-- name: find_link
-- One sighting's link and how many sightings its canonical job has.
SELECT l.job_id, l.canonical_id, l.match_keys, l.simhash, c.employer_key,
       (SELECT count(*) FROM canonical_links o WHERE o.canonical_id = l.canonical_id) AS sightings
FROM canonical_links l JOIN canonical_jobs c ON c.id = l.canonical_id
WHERE l.job_id = %(job_id)s
FOR UPDATE OF l

-- name: separate_link
-- Unmerge: the sighting moves to its own canonical job and never goes back to the old one.
WITH sep AS (
    INSERT INTO canonical_separations (job_id, canonical_id) VALUES (%(job_id)s, %(old)s) ON CONFLICT DO NOTHING
)
UPDATE canonical_links SET canonical_id = %(new)s, score = 1.0,
    evidence = jsonb_build_array(jsonb_build_object('kind', 'unmerged', 'from_canonical', %(old)s::bigint))
WHERE job_id = %(job_id)s

-- name: insert_event
-- One change of a canonical job, for its history and the change feed.
INSERT INTO canonical_events (canonical_id, kind, detail) VALUES (%(canonical_id)s, %(kind)s, %(detail)s)

-- Freshness, quality and the publish gate.

-- name: canonical_state
-- One page of live canonical jobs (keyset after %(after)s) with what freshness and quality read: the best
-- sighting's fields, and over all sightings the latest sighting, sources, best confidence and validThrough, and
-- the latest closed-vacancy notice a live sighting's page shows.
SELECT c.id, c.link_status, c.expired_at, c.stale_at, c.published_at, c.quality_score,
       best.title, best.url, best.fields, agg.last_seen, agg.sources, agg.confidence, agg.live,
       agg.valid_through, agg.closed_notice, extract(epoch FROM now() - agg.last_seen) / 86400.0 AS age_days, now() AS now
FROM canonical_jobs c
CROSS JOIN LATERAL (
    SELECT j.title, j.url, j.fields
    FROM canonical_links l JOIN jobs j ON j.id = l.job_id
    WHERE l.canonical_id = c.id
    ORDER BY (j.gone_at IS NULL) DESC, j.confidence DESC, j.last_seen DESC, j.id
    LIMIT 1
) best
CROSS JOIN LATERAL (
    SELECT max(j.last_seen) AS last_seen, count(DISTINCT j.source_id) AS sources, max(j.confidence) AS confidence,
           bool_or(j.gone_at IS NULL) AS live,
           array_remove(array_agg(j.fields->>'valid_through'), NULL) AS valid_through,
           (array_agg(j.fields->>'closed_notice' ORDER BY j.last_seen DESC)
               FILTER (WHERE j.gone_at IS NULL AND j.fields->>'closed_notice' IS NOT NULL))[1] AS closed_notice
    FROM canonical_links l JOIN jobs j ON j.id = l.job_id
    WHERE l.canonical_id = c.id
) agg
WHERE c.id > %(after)s AND c.merged_into IS NULL
ORDER BY c.id
LIMIT %(limit)s

-- name: write_state
-- A canonical job's expiry, staleness, quality score (with its parts) and publication.
UPDATE canonical_jobs SET expired_at = %(expired_at)s, stale_at = %(stale_at)s, quality_score = %(quality_score)s,
    quality_parts = %(quality_parts)s, published_at = %(published_at)s
WHERE id = %(id)s

-- Link checks.

-- name: count_checkable
-- Canonical jobs the daily link sweep covers (not folded into another, not expired).
SELECT count(*) AS n FROM canonical_jobs WHERE merged_into IS NULL AND expired_at IS NULL

-- name: claim_due_checks
-- Claim this tick's share of due canonical jobs (oldest due first). The claim pushes next_check_at only
-- LINKCHECK_CLAIM_SECONDS on, so concurrent sweeps never check one job twice, and a sweep killed before it checked
-- a job leaves it due again soon (each check then sets the next one a whole interval on). Returns each job's best
-- live sighting's URLs.
WITH due AS (
    SELECT id FROM canonical_jobs
    WHERE merged_into IS NULL AND expired_at IS NULL AND next_check_at <= now()
    ORDER BY next_check_at
    LIMIT %(limit)s
    FOR UPDATE SKIP LOCKED
), claimed AS (
    UPDATE canonical_jobs c SET next_check_at = now() + make_interval(secs => %(claim_seconds)s)
    FROM due WHERE c.id = due.id
    RETURNING c.id
)
SELECT claimed.id, best.url, best.apply_url
FROM claimed
CROSS JOIN LATERAL (
    SELECT j.url, j.fields->>'apply_url' AS apply_url
    FROM canonical_links l JOIN jobs j ON j.id = l.job_id
    WHERE l.canonical_id = claimed.id
    ORDER BY (j.gone_at IS NULL) DESC, j.confidence DESC, j.last_seen DESC, j.id
    LIMIT 1
) best

-- name: check_targets
-- The given canonical jobs with their best live sighting's job URL and apply URL.
SELECT c.id, best.url, best.apply_url
FROM canonical_jobs c
CROSS JOIN LATERAL (
    SELECT j.url, j.fields->>'apply_url' AS apply_url
    FROM canonical_links l JOIN jobs j ON j.id = l.job_id
    WHERE l.canonical_id = c.id
    ORDER BY (j.gone_at IS NULL) DESC, j.confidence DESC, j.last_seen DESC, j.id
    LIMIT 1
) best
WHERE c.id = ANY(%(ids)s::bigint[])
ORDER BY c.id

-- name: first_failure_in_row
-- Hours since the first of the failed checks in a row of this URL (none: it has not failed before).
SELECT extract(epoch FROM now() - min(f.checked_at)) / 3600.0 AS hours_ago
FROM link_checks f
WHERE f.canonical_id = %(canonical_id)s AND f.role = %(role)s AND f.url = %(url)s
  AND f.outcome IN ('broken', 'suspect')
  AND f.id > coalesce((SELECT max(o.id) FROM link_checks o
                       WHERE o.canonical_id = %(canonical_id)s AND o.role = %(role)s AND o.url = %(url)s
                         AND o.outcome NOT IN ('broken', 'suspect')), 0)
HAVING count(*) > 0

-- name: insert_link_check
-- One check of a canonical job's job or apply URL and what it answered.
INSERT INTO link_checks (canonical_id, role, url, method, status, outcome, target, error)
VALUES (%(canonical_id)s, %(role)s, %(url)s, %(method)s, %(status)s, %(outcome)s, %(target)s, %(error)s)

-- name: lock_canonical
-- A canonical job's link status, its row locked until the check's status is written.
SELECT link_status FROM canonical_jobs WHERE id = %(id)s FOR UPDATE

-- name: set_link_status
-- A canonical job's link status and when it is checked next.
UPDATE canonical_jobs SET link_status = %(status)s, next_check_at = now() + make_interval(secs => %(next_seconds)s)
WHERE id = %(id)s

-- Export.

-- name: export_canonical
-- Canonical jobs for export, with the best sighting's fields, every sighting (with its evidence and link) and
-- the latest link checks. %(source_id)s: seen by that source; %(published)s: published only; %(since)s: seen since.
-- The source and since filters pick canonical ids from the sightings first (an array computed once: jobs_source,
-- canonical_links' keys), then read those canonical jobs by key, so the sub-selects below run only for the jobs
-- exported, not for every canonical job. (An IN (sub-select) under OR stays a filter over every canonical job.)
SELECT c.id, best.title, best.fields->>'employer' AS employer, best.fields->>'location' AS location,
       best.url, best.fields->>'apply_url' AS apply_url, best.fields AS fields, best.evidence,
       best.markdown AS description_markdown,
       c.link_status, c.expired_at, c.stale_at, c.quality_score, c.quality_parts, c.published_at,
       -- first seen: the earliest sighting (the canonical job is made later, when the resolver runs), never after
       -- last seen
       least(c.first_seen, sightings.first_seen) AS first_seen,
       greatest(sightings.last_seen, least(c.first_seen, sightings.first_seen)) AS last_seen,
       sightings.list AS sightings, checks.list AS link_checks
FROM canonical_jobs c
CROSS JOIN LATERAL (
    SELECT j.title, j.url, j.fields, j.evidence, d.markdown
    FROM canonical_links l JOIN jobs j ON j.id = l.job_id LEFT JOIN job_documents d ON d.job_id = j.id
    WHERE l.canonical_id = c.id
    ORDER BY (j.gone_at IS NULL) DESC, j.confidence DESC, j.last_seen DESC, j.id
    LIMIT 1
) best
CROSS JOIN LATERAL (
    SELECT max(j.last_seen) AS last_seen, min(j.first_seen) AS first_seen,
           jsonb_agg(jsonb_build_object(
               'job_id', j.id, 'source_id', j.source_id, 'key', j.canonical_key, 'title', j.title, 'url', j.url,
               'parser_key', j.parser_key, 'confidence', j.confidence, 'first_seen', j.first_seen,
               'last_seen', j.last_seen, 'gone_at', j.gone_at, 'fields', j.fields, 'evidence', j.evidence,
               'link_score', l.score, 'link_evidence', l.evidence, 'markdown', d.markdown) ORDER BY j.id) AS list
    FROM canonical_links l JOIN jobs j ON j.id = l.job_id LEFT JOIN job_documents d ON d.job_id = j.id
    WHERE l.canonical_id = c.id
) sightings
CROSS JOIN LATERAL (
    SELECT coalesce(jsonb_agg(jsonb_build_object('role', k.role, 'url', k.url, 'method', k.method,
                                                 'status', k.status, 'outcome', k.outcome, 'target', k.target,
                                                 'error', k.error, 'checked_at', k.checked_at)
                              ORDER BY k.id DESC), '[]'::jsonb) AS list
    FROM (SELECT * FROM link_checks k WHERE k.canonical_id = c.id ORDER BY k.id DESC LIMIT 4) k
) checks
WHERE c.merged_into IS NULL
  AND (%(canonical_id)s::bigint IS NULL OR c.id = %(canonical_id)s)
  AND (%(source_id)s::text IS NULL OR c.id = ANY(ARRAY(
      SELECT l.canonical_id FROM jobs j JOIN canonical_links l ON l.job_id = j.id WHERE j.source_id = %(source_id)s)))
  AND (NOT %(published)s OR c.published_at IS NOT NULL)
  AND (%(since)s::timestamptz IS NULL OR c.id = ANY(ARRAY(
      SELECT l.canonical_id FROM jobs j JOIN canonical_links l ON l.job_id = j.id
      WHERE j.last_seen >= %(since)s::timestamptz)))
ORDER BY c.id
