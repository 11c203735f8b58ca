"""API tokens: made here, shown once, stored as sha256 (a token is 256 random bits, so a plain hash is as good as
a slow one and costs one indexed lookup per request). Scopes name what a token may read."""

from __future__ import annotations

import hashlib
import re
import secrets

from gigflow.store import delivery as store

SCOPES = {"jobs:read": "GET /api/v1/jobs and /api/v1/jobs/{id}", "changes:read": "GET /api/v1/changes"}
PREFIX = "gfapi_"
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


class TokenError(ValueError):
    pass


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def add(pool, name: str, scopes: list[str]) -> str:
    """A new token (returned once, never stored in clear)."""
    if not NAME.match(name or ""):
        raise TokenError(f"token name {name!r}: use 1-64 letters, digits, '.', '_' or '-'")
    unknown = sorted(set(scopes) - set(SCOPES))
    if unknown or not scopes:
        raise TokenError(f"scope(s) {', '.join(unknown) or '(none)'}: give one or more of {', '.join(SCOPES)}")
    token = PREFIX + secrets.token_urlsafe(32)
    with pool.connection() as conn:
        if store.insert_token(conn, name, digest(token), sorted(set(scopes))) is None:
            raise TokenError(f"a token named {name!r} exists (revoke it or choose another name)")
    return token


def revoke(pool, name: str) -> None:
    with pool.connection() as conn:
        if not store.revoke_token(conn, name):
            raise TokenError(f"no live token named {name!r} (`scrapy api tokens list`)")


def listing(pool) -> list[store.TokenRow]:
    with pool.connection() as conn:
        return store.list_tokens(conn)


def lookup(conn, token: str) -> store.LiveToken | None:
    """The live token's name and scopes, or None."""
    if not token or len(token) > 200:
        return None
    return store.find_token(conn, digest(token))
