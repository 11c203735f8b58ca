"""PostgreSQL access: pool, embedded server default, migrations."""

from gigflow.db.connection import (DatabaseUnavailable, NoDatabaseError, close_pools, connect, data_dir, database_url,
                                   get_pool)

__all__ = ["DatabaseUnavailable", "NoDatabaseError", "close_pools", "connect", "data_dir", "database_url", "get_pool"]
