"""PostgreSQL access: pool, embedded server default, migrations."""

from gigflow.db.connection import NoDatabaseError, close_pools, data_dir, database_url, get_pool

__all__ = ["NoDatabaseError", "close_pools", "data_dir", "database_url", "get_pool"]
