"""PostgreSQL access: pool, embedded server default, migrations."""

from gigflow.db.connection import close_pools, data_dir, database_url, get_pool

__all__ = ["close_pools", "data_dir", "database_url", "get_pool"]
