INSERT INTO run_health (run_id, source_id, spider, complete, health, drift)
VALUES (%(run_id)s, %(source_id)s, %(spider)s, %(complete)s, %(health)s, %(drift)s)
ON CONFLICT (run_id) DO UPDATE SET complete = EXCLUDED.complete, health = EXCLUDED.health, drift = EXCLUDED.drift
