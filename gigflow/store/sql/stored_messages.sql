-- The e-mails already stored for a source: the mailbox spider stores each Message-ID and each body once.
SELECT url, sha256 FROM source_versions WHERE source_id = %(source_id)s AND content_type = %(content_type)s
