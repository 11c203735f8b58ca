-- Tables outside the system schemas: a database to restore into must have none.
SELECT count(*) FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')
