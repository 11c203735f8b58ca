-- When each URL of a source was last fetched (a version refreshed by an unchanged fetch counts): the sitemap spider
-- skips pages whose lastmod is older.
SELECT url, max(last_fetched_at) AS fetched_at FROM source_versions WHERE source_id = %(source_id)s GROUP BY url
