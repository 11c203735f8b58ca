"""scrapy db upgrade | url | status"""

from gigflow.commands import GigflowCommand, UsageError
from gigflow.db import database_url, get_pool
from gigflow.db.migrate import migrations, upgrade


class Command(GigflowCommand):
    def syntax(self):
        return "upgrade|url|status"

    def short_desc(self):
        return "Apply migrations, print the database URL, or show applied migrations"

    def run(self, args, opts):
        if len(args) != 1 or args[0] not in ("upgrade", "url", "status"):
            raise UsageError()
        if args[0] == "url":
            print(database_url())
            return
        pool = get_pool(migrate=False)
        if args[0] == "upgrade":
            applied = upgrade(pool)
            print(f"applied migrations: {applied}" if applied else "database is up to date")
            return
        with pool.connection() as conn:
            exists = conn.execute("SELECT to_regclass('schema_migrations') AS t").fetchone()["t"]
            done = {r["version"] for r in conn.execute("SELECT version FROM schema_migrations")} if exists else set()
        for version, name, _ in migrations():
            print(f"{version:04d} {name}: {'applied' if version in done else 'pending'}")
