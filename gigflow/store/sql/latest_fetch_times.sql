-- When each URL of a source was last stored: the sitemap spider skips pages whose lastmod is older.
SELECT url, max(fetched_at) AS fetched_at FROM source_versions WHERE source_id = %(source_id)s GROUP BY url
