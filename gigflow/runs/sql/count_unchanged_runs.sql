-- A complete run: count runs in a row whose content did not change; a change resets the count.
UPDATE sources SET unchanged_runs = CASE WHEN %(changed)s THEN 0 ELSE unchanged_runs + 1 END, updated_at = now()
WHERE id = %(source_id)s
RETURNING unchanged_runs, status
