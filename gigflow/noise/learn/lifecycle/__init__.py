"""The noise filter's lifecycle: storage in the configuration's JSONB, race-safe procedures, the review queue."""
