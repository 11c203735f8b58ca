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
