"""Job maintenance above the per-source jobs: canonical jobs (entity resolution), link checks, freshness and
expiry, the quality score and publish gate, exports. Workers read and write the store only. One owner per table
family: canonical.py (canonical.sql) for the canonical-job tables, job_documents.py (job_documents.sql) for
job_documents."""
