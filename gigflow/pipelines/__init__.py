"""Item pipelines: the only place crawls write to PostgreSQL."""
