"""scrapy api tokens add NAME --scope S [--scope S] | tokens list | tokens revoke NAME | index [--rebuild]
| webhooks add NAME URL | webhooks list | webhooks remove NAME | webhooks send NAME"""

from dataclasses import asdict

from gigflow.commands import GigflowCommand, UsageError, table


class Command(GigflowCommand):
    def syntax(self):
        return ("tokens add NAME --scope SCOPE [--scope SCOPE] | tokens list | tokens revoke NAME | index [--rebuild] | "
                "webhooks add NAME URL | webhooks list | webhooks remove NAME | webhooks send NAME")

    def short_desc(self):
        return "Manage read API tokens (stored hashed) and webhooks, and bring the search index up to date"

    def add_options(self, parser):
        super().add_options(parser)
        parser.add_argument("--scope", action="append", default=[],
                            help="tokens add: jobs:read, changes:read (repeat for several)")
        parser.add_argument("--rebuild", action="store_true", help="index: rebuild every row")

    def run(self, args, opts):
        from gigflow.delivery import indexer, tokens

        if args[:1] == ["index"] and len(args) == 1:
            pool = self.pool
            if opts.rebuild:
                indexer.reset(pool)
            print(indexer.catch_up(pool))
            return
        if args[:1] == ["webhooks"] and len(args) >= 2:
            return self._webhooks(args[1], args[2:])
        if args[:1] != ["tokens"] or len(args) < 2:
            raise UsageError()
        action, rest = args[1], args[2:]
        try:
            if action == "add" and len(rest) == 1:
                token = tokens.add(self.pool, rest[0], opts.scope)
                print(f"token {rest[0]!r} ({', '.join(sorted(set(opts.scope)))}); shown once, keep it now:\n{token}")
            elif action == "revoke" and len(rest) == 1:
                tokens.revoke(self.pool, rest[0])
                print(f"token {rest[0]!r} revoked")
            elif action == "list" and not rest:
                rows = [{**asdict(r), "scopes": ",".join(r.scopes), "state": "revoked" if r.revoked_at else "live"}
                        for r in tokens.listing(self.pool)]
                print(table(rows, ["name", "scopes", "state", "created_at"], {}) if rows else "no tokens")
            else:
                raise UsageError()
        except tokens.TokenError as exc:
            self.fail(str(exc))

    def _webhooks(self, action: str, rest: list[str]):
        from gigflow.delivery import webhooks
        from gigflow.safety.guard import FetchGuard

        guard = FetchGuard.from_settings(self.settings)
        try:
            if action == "add" and len(rest) == 2:
                secret = webhooks.add(self.pool, rest[0], rest[1], guard)
                print(f"webhook {rest[0]!r} -> {rest[1]}: changes from now on, signed with this secret "
                      f"(shown once):\n{secret}")
            elif action == "remove" and len(rest) == 1:
                webhooks.remove(self.pool, rest[0])
                print(f"webhook {rest[0]!r} removed")
            elif action == "list" and not rest:
                rows = [asdict(hook) for hook in webhooks.listing(self.pool)]
                print(table(rows, ["name", "url", "failures", "last_delivered_at", "last_error"], {})
                      if rows else "no webhooks")
            elif action == "send" and len(rest) == 1:
                print(webhooks.deliver(self.pool, rest[0], guard, webhooks.WebhookSettings.from_settings(
                    self.settings)))
            else:
                raise UsageError()
        except webhooks.WebhookError as exc:
            self.fail(str(exc))
