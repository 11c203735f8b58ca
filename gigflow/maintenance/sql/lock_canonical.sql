SELECT id, link_status FROM canonical_jobs WHERE id = %(id)s FOR UPDATE
