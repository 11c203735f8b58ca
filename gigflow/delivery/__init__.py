"""Delivery: the read API (`scrapy serve-api`), the change feed and search over published canonical jobs, and
database backups. Thin over ``gigflow.store.delivery``, which owns the SQL."""
