-- Another resolver (a crawl's extension, the worker) may have linked the job since it was read.
SELECT EXISTS (SELECT 1 FROM canonical_links WHERE job_id = %(job_id)s) AS linked
