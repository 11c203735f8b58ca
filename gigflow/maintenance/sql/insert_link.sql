INSERT INTO canonical_links (job_id, canonical_id, evidence, score, match_keys, simhash)
VALUES (%(job_id)s, %(canonical_id)s, %(evidence)s, %(score)s, %(match_keys)s, %(simhash)s)
