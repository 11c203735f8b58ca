-- One schedule-due pass at a time (held by the session until it ends): the next pass polls the nodes after this
-- one's jobs are in their queues, so no slot is counted twice.
SELECT pg_advisory_lock(hashtextextended('gigflow.schedule-due', 0))
