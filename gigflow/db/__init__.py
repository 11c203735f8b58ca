"""PostgreSQL access: pool, embedded server default, migrations."""

from gigflow.db.connection import (DatabaseUnavailable, NoDatabaseError, close_pools, connect, data_dir, database_url,
                                   get_pool, open_pool, open_pool_from_settings, pool_from_crawler,
                                   pool_from_settings, url_from_settings)

__all__ = ["DatabaseUnavailable", "NoDatabaseError", "close_pools", "connect", "data_dir", "database_url", "get_pool",
           "open_pool", "open_pool_from_settings", "pool_from_crawler", "pool_from_settings", "url_from_settings"]
