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
