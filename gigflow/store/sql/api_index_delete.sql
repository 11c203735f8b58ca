DELETE FROM delivery_jobs WHERE canonical_id = ANY(%(ids)s::bigint[])
