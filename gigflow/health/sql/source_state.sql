-- A source's status, policy review and when it entered its current status.
SELECT s.id, s.status, s.status_reason, s.policy_reviewed_at, s.policy_reviewed_by, s.policy_note,
       s.configuration_id, s.next_crawl_at, g.strategies,
       (SELECT e.at FROM source_status_events e WHERE e.source_id = s.id AND e.to_status = s.status
        ORDER BY e.id DESC LIMIT 1) AS status_since,
       (SELECT e.from_status FROM source_status_events e WHERE e.source_id = s.id AND e.to_status = 'drifting'
        ORDER BY e.id DESC LIMIT 1) AS status_before_drift
FROM sources s JOIN configurations g ON g.id = s.configuration_id
WHERE s.id = %(id)s
