"""Job maintenance above the per-source jobs: canonical jobs (entity resolution), link checks, freshness and
expiry, the quality score and publish gate, exports. Workers read and write the store only; SQL sits in sql/."""
