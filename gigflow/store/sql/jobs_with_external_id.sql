-- Every job of the source carrying this external id: tells whether the id has proved to be an identity.
SELECT canonical_key, url, last_run_id FROM jobs WHERE source_id = %(source_id)s AND external_id = %(external_id)s
