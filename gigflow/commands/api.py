"""scrapy api tokens add NAME --scope S [--scope S] | tokens list | tokens revoke NAME | index [--rebuild]"""

from gigflow.commands import GigflowCommand, UsageError, table


class Command(GigflowCommand):
    def syntax(self):
        return "tokens add NAME --scope SCOPE [--scope SCOPE] | tokens list | tokens revoke NAME | index [--rebuild]"

    def short_desc(self):
        return "Manage read API tokens (stored hashed) and bring its search index up to date"

    def add_options(self, parser):
        super().add_options(parser)
        parser.add_argument("--scope", action="append", default=[],
                            help="tokens add: jobs:read, changes:read (repeat for several)")
        parser.add_argument("--rebuild", action="store_true", help="index: rebuild every row")

    def run(self, args, opts):
        from gigflow.db import get_pool
        from gigflow.delivery import indexer, tokens

        if args[:1] == ["index"] and len(args) == 1:
            pool = get_pool()
            if opts.rebuild:
                indexer.reset(pool)
            print(indexer.catch_up(pool))
            return
        if args[:1] != ["tokens"] or len(args) < 2:
            raise UsageError()
        action, rest = args[1], args[2:]
        try:
            if action == "add" and len(rest) == 1:
                token = tokens.add(get_pool(), rest[0], opts.scope)
                print(f"token {rest[0]!r} ({', '.join(sorted(set(opts.scope)))}); shown once, keep it now:\n{token}")
            elif action == "revoke" and len(rest) == 1:
                tokens.revoke(get_pool(), rest[0])
                print(f"token {rest[0]!r} revoked")
            elif action == "list" and not rest:
                rows = [{**r, "scopes": ",".join(r["scopes"]), "state": "revoked" if r["revoked_at"] else "live"}
                        for r in tokens.listing(get_pool())]
                print(table(rows, ["name", "scopes", "state", "created_at"], {}) if rows else "no tokens")
            else:
                raise UsageError()
        except tokens.TokenError as exc:
            self.fail(str(exc))
