"""`scrapy db backup` and `scrapy db restore`: an encrypted custom-format dump, retention, and a restore into an
empty database that gives back the same rows and the same export; refusals are clear."""

from __future__ import annotations

import json
import secrets

import psycopg
from psycopg.conninfo import make_conninfo

from delivery_helpers import add_source, insert_job, publish
from helpers import scrapy_command


def _counts(url: str) -> dict[str, int]:
    with psycopg.connect(url) as conn:
        tables = [r[0] for r in conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")]
        return {t: conn.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in tables}


def _export(url: str) -> str:
    from gigflow import api

    return "\n".join(json.dumps(job, sort_keys=True, default=str) for job in api.jobs(database_url=url))


def test_backup_then_restore_gives_the_same_rows_and_export(pool, database_url, admin_database_url, tmp_path):
    add_source(pool, "acme-feed")
    with pool.connection() as conn:
        for n in range(5):
            insert_job(conn, "acme-feed", n, title=f"Welder {n}")
    publish(pool)
    key = tmp_path / "backup.key"
    key.write_bytes(secrets.token_bytes(32))
    folder = tmp_path / "backups"

    for _ in range(3):
        done = scrapy_command("db", "backup", "--key-file", str(key), "--dir", str(folder), "--keep", "2")
        assert done.returncode == 0, done.stderr
    files = sorted(folder.glob("gigflow-*.dump.enc"))
    assert len(files) == 2 and "removed 1 older" in done.stdout  # retention: the newest two
    newest = files[-1]
    assert b"Welder" not in newest.read_bytes()  # encrypted, not just compressed

    target = f"gigflow_test_restore_{secrets.token_hex(3)}"
    with psycopg.connect(admin_database_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{target}"')
    target_url = make_conninfo(admin_database_url, dbname=target)
    try:
        refused = scrapy_command("db", "restore", str(newest), "--to", target_url)
        assert refused.returncode != 0 and "encrypted" in refused.stderr
        wrong = tmp_path / "wrong.key"
        wrong.write_bytes(secrets.token_bytes(32))
        refused = scrapy_command("db", "restore", str(newest), "--key-file", str(wrong), "--to", target_url)
        assert refused.returncode != 0 and "does not decrypt" in refused.stderr and "Traceback" not in refused.stderr

        done = scrapy_command("db", "restore", str(newest), "--key-file", str(key), "--to", target_url)
        assert done.returncode == 0, done.stderr
        assert _counts(target_url) == _counts(database_url)
        assert _counts(target_url)["jobs"] == 5
        assert _export(target_url) == _export(database_url) != ""

        again = scrapy_command("db", "restore", str(newest), "--key-file", str(key), "--to", target_url)
        assert again.returncode != 0 and "not empty" in again.stderr  # never over existing data
    finally:
        from gigflow.db import close_pools

        close_pools()
        with psycopg.connect(admin_database_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{target}" WITH (FORCE)')


def test_the_dump_tools_match_the_server_version(database_url):
    from gigflow.db.backup import _server, _tool_major, find_tool

    major = _server(database_url)[0]
    for name in ("pg_dump", "pg_restore"):
        assert _tool_major(find_tool(name, major)) >= major
