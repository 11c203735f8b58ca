UPDATE sources SET policy_reviewed_at = now(), policy_reviewed_by = %(actor)s, policy_note = %(note)s,
                   updated_at = now()
WHERE id = %(id)s
RETURNING policy_reviewed_at
