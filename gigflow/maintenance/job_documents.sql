-- Job documents (gigflow.maintenance.job_documents): per-job Markdown prepared from a payload's description.

-- name: upsert_job_document
-- A job's Markdown and where it was read (its payload version and evidence path); a later preparation replaces it.
INSERT INTO job_documents (job_id, source_version_id, evidence_path, markdown)
VALUES (%(job_id)s, %(source_version_id)s, %(path)s, %(markdown)s)
ON CONFLICT (job_id) DO UPDATE SET source_version_id = EXCLUDED.source_version_id,
    evidence_path = EXCLUDED.evidence_path, markdown = EXCLUDED.markdown, prepared_at = now()
