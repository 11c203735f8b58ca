-- One sighting's link and how many sightings its canonical job has.
SELECT l.job_id, l.canonical_id, l.match_keys, l.simhash, c.employer_key,
       (SELECT count(*) FROM canonical_links o WHERE o.canonical_id = l.canonical_id) AS sightings
FROM canonical_links l JOIN canonical_jobs c ON c.id = l.canonical_id
WHERE l.job_id = %(job_id)s
FOR UPDATE OF l
