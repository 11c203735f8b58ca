"""Re-extraction of stored versions: the jobs a page yields under today's adapters, without fetching it."""

from __future__ import annotations

from gigflow.adapters import extract
from gigflow.adapters.page import page_jobs, stored_document
from gigflow.store.job_writer import JobWriter
from gigflow.sources.repository import get_source
from gigflow.store import versions as store_versions



def reextract(pool, source_id: str | None = None) -> dict:
    """Re-extract the latest version of each URL whose jobs were produced by another parser version (or that
    has no job left although it yields some). Jobs keep their last run and gone marks; each re-extracted job
    gets a 'reextracted' event. Returns counts."""
    counts = {"versions": 0, "reextracted": 0, "new": 0, "changed": 0, "skipped": 0}
    writer, records = JobWriter(run_id=None), {}
    if source_id is not None:
        records[source_id] = get_source(pool, source_id)  # an unknown source is an error, not "nothing to do"
    with pool.connection() as conn:
        versions = store_versions.latest_versions_with_parsers(conn, source_id)
    for version in versions:
        counts["versions"] += 1
        record = records.get(version.source_id) or records.setdefault(
            version.source_id, get_source(pool, version.source_id))
        with pool.connection() as conn, conn.transaction():
            stored = store_versions.version_body(conn, version.id)
            # As the crawl extracts: the source's company, dates read against the page's fetch time.
            result = extract(bytes(stored.body), url=version.url, content_type=version.content_type,
                             parser_key=record.config.parser_key, company=record.config.company,
                             fetched_at=version.fetched_at)
            parsed_by = set(version.parser_versions or [])
            if not result.jobs or (parsed_by and parsed_by == {result.parser_version}):
                counts["skipped"] += 1
                continue
            outcome = writer.write_page(
                conn, source_id=version.source_id, page_url=version.url,
                jobs=[job.model_dump(mode="json", exclude_none=True)
                      for job in page_jobs(result, stored_document(stored, version.url))],
                version_id=version.id, parser_key=result.parser_key, parser_version=result.parser_version,
                confidence=result.confidence, reextract=True)
        for name in ("reextracted", "new", "changed"):
            counts[name] += outcome[name]
    return counts
