-- Delivery (gigflow.store.delivery): API tokens, the list/search read model, cursors, webhooks and the change feed.

-- name: token_insert
-- A new API token (only its sha256 is kept); None when the name is taken.
INSERT INTO api_tokens (name, token_sha256, scopes) VALUES (%(name)s, %(token_sha256)s, %(scopes)s)
ON CONFLICT (name) DO NOTHING
RETURNING id, name, scopes, created_at

-- name: token_list
SELECT id, name, scopes, created_at, revoked_at FROM api_tokens ORDER BY name

-- name: token_revoke
UPDATE api_tokens SET revoked_at = now() WHERE name = %(name)s AND revoked_at IS NULL RETURNING id

-- name: token_find
-- The live token with this hash: its name and scopes.
SELECT name, scopes FROM api_tokens WHERE token_sha256 = %(token_sha256)s AND revoked_at IS NULL

-- name: list_jobs
-- GET /api/v1/jobs (no q): published canonical jobs, newest first, keyset after %(before)s (a canonical id);
-- %(limit)s is one more than the page so the caller knows whether another page follows.
SELECT d.canonical_id AS id, d.title, d.employer, d.location, d.remote, d.employment_type, d.date_posted,
       d.source_ids, d.language, c.published_at, c.quality_score, c.link_status, c.first_seen,
       greatest(d.modified_at, c.published_at) AS modified_at, NULL::real AS rank
FROM delivery_jobs d
JOIN canonical_jobs c ON c.id = d.canonical_id
WHERE c.published_at IS NOT NULL AND c.merged_into IS NULL
  AND (%(before)s::bigint IS NULL OR d.canonical_id < %(before)s::bigint)
  AND (%(before)s::bigint IS NULL OR c.id < %(before)s::bigint)  -- lets a merge join start there too
  AND (%(source)s::text IS NULL OR d.source_ids @> ARRAY[%(source)s::text])
  AND (%(employer)s::text IS NULL OR lower(d.employer) = lower(%(employer)s::text))
  AND (%(location)s::text IS NULL OR d.location ILIKE '%%' || %(location)s::text || '%%')
  AND (%(remote)s::text IS NULL OR d.remote = %(remote)s::text)
  AND (%(employment_type)s::text IS NULL OR lower(d.employment_type) = lower(%(employment_type)s::text))
  AND (%(posted_since)s::date IS NULL OR d.date_posted >= %(posted_since)s::date)
ORDER BY d.canonical_id DESC
LIMIT %(limit)s

-- name: search_jobs
-- GET /api/v1/jobs?q=...: published canonical jobs matching q, best first (ts_rank_cd over the weighted vector:
-- title A, employer B, location C, description D), keyset after (%(rank)s, %(before)s). q is parsed with every
-- dictionary in %(configs)s (gigflow.delivery.language.QUERY_CONFIGS) and the parses OR-ed, so a German query meets German stems and an English one English
-- stems without knowing the query's language (equal parses once).
WITH q AS (
    SELECT string_agg(DISTINCT '(' || parsed::text || ')', ' | ')::tsquery AS query
    FROM unnest(%(configs)s::text[]::regconfig[]) AS config,
         LATERAL websearch_to_tsquery(config, %(q)s) AS parsed
    WHERE numnode(parsed) > 0
)
SELECT * FROM (
    SELECT d.canonical_id AS id, d.title, d.employer, d.location, d.remote, d.employment_type, d.date_posted,
           d.source_ids, d.language, c.published_at, c.quality_score, c.link_status, c.first_seen,
           greatest(d.modified_at, c.published_at) AS modified_at,
           ts_rank_cd(d.search, q.query, %(normalization)s) AS rank
    FROM delivery_jobs d
    CROSS JOIN q
    JOIN canonical_jobs c ON c.id = d.canonical_id
    WHERE d.search @@ q.query
      AND c.published_at IS NOT NULL AND c.merged_into IS NULL
      AND (%(source)s::text IS NULL OR d.source_ids @> ARRAY[%(source)s::text])
      AND (%(employer)s::text IS NULL OR lower(d.employer) = lower(%(employer)s::text))
      AND (%(location)s::text IS NULL OR d.location ILIKE '%%' || %(location)s::text || '%%')
      AND (%(remote)s::text IS NULL OR d.remote = %(remote)s::text)
      AND (%(employment_type)s::text IS NULL OR lower(d.employment_type) = lower(%(employment_type)s::text))
      AND (%(posted_since)s::date IS NULL OR d.date_posted >= %(posted_since)s::date)
) hits
WHERE %(rank)s::real IS NULL OR (hits.rank, hits.id) < (%(rank)s::real, %(before)s::bigint)
ORDER BY hits.rank DESC, hits.id DESC
LIMIT %(limit)s

-- name: job
-- GET /api/v1/jobs/{id}: one canonical job (published, or the one it was folded into) with the best sighting's
-- fields and evidence, every sighting (with its evidence and, when %(markdown)s, its Markdown: the job's own
-- document for payload jobs, else its page's) and the latest link checks.
SELECT c.id, c.merged_into, c.published_at, c.expired_at, c.stale_at, c.link_status, c.quality_score,
       c.quality_parts, c.first_seen, best.title, best.url, best.fields, best.evidence, sightings.last_seen,
       sightings.list AS sightings, checks.list AS link_checks,
       greatest(c.first_seen, c.published_at, c.expired_at, c.stale_at, sightings.last_seen, checks.last_checked)
           AS modified_at
FROM canonical_jobs c
LEFT JOIN LATERAL (
    SELECT j.title, j.url, j.fields, j.evidence
    FROM canonical_links l JOIN jobs j ON j.id = l.job_id
    WHERE l.canonical_id = c.id
    ORDER BY (j.gone_at IS NULL) DESC, j.confidence DESC, j.last_seen DESC, j.id
    LIMIT 1
) best ON true
LEFT JOIN LATERAL (
    SELECT max(j.last_seen) AS last_seen,
           jsonb_agg(jsonb_build_object(
               'job_id', j.id, 'source_id', j.source_id, 'title', j.title, 'url', j.url,
               'parser_key', j.parser_key, 'confidence', j.confidence, 'first_seen', j.first_seen,
               'last_seen', j.last_seen, 'gone_at', j.gone_at, 'fields', j.fields, 'evidence', j.evidence,
               'link_score', l.score, 'link_evidence', l.evidence,
               'markdown', CASE WHEN %(markdown)s THEN coalesce(d.markdown, m.markdown) END) ORDER BY j.id) AS list
    FROM canonical_links l JOIN jobs j ON j.id = l.job_id
    LEFT JOIN job_documents d ON %(markdown)s AND d.job_id = j.id
    LEFT JOIN source_versions v ON %(markdown)s AND d.job_id IS NULL AND v.id = j.source_version_id
    LEFT JOIN markdowns m ON m.sha256 = v.markdown_sha256
    WHERE l.canonical_id = c.id
) sightings ON true
LEFT JOIN LATERAL (
    SELECT max(k.checked_at) AS last_checked,
           coalesce(jsonb_agg(jsonb_build_object('role', k.role, 'url', k.url, 'status', k.status,
                                                 'outcome', k.outcome, 'checked_at', k.checked_at)
                              ORDER BY k.id DESC), '[]'::jsonb) AS list
    FROM (SELECT * FROM link_checks k WHERE k.canonical_id = c.id ORDER BY k.id DESC LIMIT 4) k
) checks ON true
WHERE c.id = %(id)s

-- name: changes
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

-- name: index_source
-- What the list/search read model is built from, for the given canonical jobs: the best sighting (as the export
-- chooses it) and every source that saw the job. Folded (merged_into) and unknown ids come back with gone = true.
SELECT ids.id AS canonical_id, (c.id IS NULL OR c.merged_into IS NOT NULL OR best.title IS NULL) AS gone,
       best.title, best.fields, srcs.source_ids
FROM unnest(%(ids)s::bigint[]) AS ids(id)
LEFT JOIN canonical_jobs c ON c.id = ids.id
LEFT JOIN LATERAL (
    SELECT j.title, j.fields
    FROM canonical_links l JOIN jobs j ON j.id = l.job_id
    WHERE l.canonical_id = c.id
    ORDER BY (j.gone_at IS NULL) DESC, j.confidence DESC, j.last_seen DESC, j.id
    LIMIT 1
) best ON true
LEFT JOIN LATERAL (
    SELECT array_agg(DISTINCT j.source_id ORDER BY j.source_id) AS source_ids
    FROM canonical_links l JOIN jobs j ON j.id = l.job_id
    WHERE l.canonical_id = c.id
) srcs ON true

-- name: index_all
-- Every canonical job id after %(after)s (a full rebuild pages through them).
SELECT id FROM canonical_jobs WHERE id > %(after)s AND merged_into IS NULL ORDER BY id LIMIT %(limit)s

-- name: index_upsert
-- One read-model row: title weighted A, employer B, location C (names: the simple dictionary, unstemmed),
-- description D, each in the job's language; words with diacritics also without them (extra_*). Rewritten
-- only when what it is built from changed.
INSERT INTO delivery_jobs AS d (canonical_id, title, employer, location, remote, employment_type, date_posted,
                                source_ids, language, search, digest, modified_at)
VALUES (%(canonical_id)s, %(title)s, %(employer)s, %(location)s, %(remote)s, %(employment_type)s,
        %(date_posted)s, %(source_ids)s, %(language)s::text,
        setweight(to_tsvector(%(language)s::text::regconfig, %(title)s || ' ' || %(extra_title)s), 'A')
        || setweight(to_tsvector('simple', coalesce(%(employer)s, '') || ' ' || %(extra_names)s), 'B')
        || setweight(to_tsvector('simple', coalesce(%(location)s, '') || ' ' || %(extra_location)s), 'C')
        || setweight(to_tsvector(%(language)s::text::regconfig, %(body)s), 'D'),
        %(digest)s, now())
ON CONFLICT (canonical_id) DO UPDATE SET
    title = EXCLUDED.title, employer = EXCLUDED.employer, location = EXCLUDED.location, remote = EXCLUDED.remote,
    employment_type = EXCLUDED.employment_type, date_posted = EXCLUDED.date_posted,
    source_ids = EXCLUDED.source_ids, language = EXCLUDED.language, search = EXCLUDED.search,
    digest = EXCLUDED.digest, modified_at = now()
WHERE d.digest <> EXCLUDED.digest

-- name: index_delete
DELETE FROM delivery_jobs WHERE canonical_id = ANY(%(ids)s::bigint[])

-- name: cursor_get
SELECT position FROM delivery_cursors WHERE name = %(name)s

-- name: cursor_save
INSERT INTO delivery_cursors (name, position) VALUES (%(name)s, %(position)s)
ON CONFLICT (name) DO UPDATE SET position = EXCLUDED.position, updated_at = now()

-- name: feed_head
-- The newest position of the change feed a reader may be handed now (see changes), or no row.
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

-- name: cursor_forget
DELETE FROM delivery_cursors WHERE name = %(name)s

-- name: webhook_insert
INSERT INTO api_webhooks (name, url, secret, position) VALUES (%(name)s, %(url)s, %(secret)s, %(position)s)
ON CONFLICT (name) DO NOTHING
RETURNING id

-- name: webhook_list
SELECT id, name, url, position, failures, last_error, last_delivered_at, created_at FROM api_webhooks ORDER BY name

-- name: webhook_remove
DELETE FROM api_webhooks WHERE name = %(name)s RETURNING id

-- name: webhook_get
SELECT id, name, url, secret, position, failures FROM api_webhooks WHERE name = %(name)s

-- name: webhook_delivered
-- The receiver took the batch (or there was nothing to send up to this position): move on.
UPDATE api_webhooks SET position = %(position)s, failures = 0, last_error = NULL,
    last_delivered_at = CASE WHEN %(sent)s THEN now() ELSE last_delivered_at END
WHERE id = %(id)s AND position = %(from_position)s

-- name: webhook_failed
UPDATE api_webhooks SET failures = failures + 1, last_error = %(error)s WHERE id = %(id)s RETURNING failures
