"""Migrations on a fresh database while several processes start at once, as scrapyd starts crawls."""

import os
import secrets
import subprocess
import sys

import psycopg
from psycopg.conninfo import make_conninfo

from helpers import ROOT


def test_concurrent_first_use_migrates_once_without_errors(admin_database_url):
    name = f"gigflow_test_migrate_{secrets.token_hex(3)}"
    with psycopg.connect(admin_database_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    url = make_conninfo(admin_database_url, dbname=name)
    try:
        env = {**os.environ, "GIGFLOW_DATABASE_URL": url}
        processes = [subprocess.Popen([sys.executable, "-m", "scrapy", "db", "upgrade"], cwd=ROOT, env=env,
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(4)]
        outputs = [p.communicate(timeout=120) for p in processes]
        assert all(p.returncode == 0 for p in processes), [err[-1500:] for _, err in outputs]
        with psycopg.connect(url) as conn:
            versions = [r[0] for r in conn.execute("SELECT version FROM schema_migrations ORDER BY version")]
            functions = conn.execute("SELECT count(*) FROM pg_proc WHERE proname LIKE 'gigflow_noise_%'").fetchone()[0]
            queue = conn.execute("SELECT to_regclass('procrastinate_jobs') IS NOT NULL").fetchone()[0]
        assert versions == sorted(set(versions)) and versions[0] == 1 and functions == 4 and queue
        # a later process finds nothing to do
        again = subprocess.run([sys.executable, "-m", "scrapy", "db", "upgrade"], cwd=ROOT, env=env,
                               capture_output=True, text=True, timeout=120)
        assert again.returncode == 0 and "up to date" in again.stdout
    finally:
        with psycopg.connect(admin_database_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
