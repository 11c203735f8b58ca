-- One crawl per source and strategy: a session advisory lock, released when its connection ends (so a killed
-- crawl never holds it).
SELECT pg_try_advisory_lock(hashtextextended(%(key)s, 0)) AS locked
