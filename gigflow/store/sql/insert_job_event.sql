INSERT INTO job_events (job_id, run_id, kind, fields) VALUES (%(job_id)s, %(run_id)s, %(kind)s, %(fields)s)
