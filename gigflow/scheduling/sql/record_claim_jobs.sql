-- The jobs schedule-due handed to the nodes for a claimed source.
UPDATE crawl_claims SET jobs = %(jobs)s WHERE source_id = %(source_id)s
