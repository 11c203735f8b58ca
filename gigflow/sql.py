"""SQL lives in .sql files beside the code that runs it; this loads them once.

A table family's owner reads one named-queries file (procrastinate's ``queries.sql`` is the model)::

    -- name: find_job
    -- The stored job under this source's key (description: comment lines right after the name).
    SELECT ... FROM jobs WHERE ...

``load_queries(package, filename)`` returns {name: SQL}; ``fetch_row``/``fetch_rows`` run one and build each row as
the given (frozen data) class with psycopg's ``class_row``, so a column the class does not name, or a field the query
does not return, is an error at once rather than a ``KeyError`` later. The only other .sql files are whole scripts:
the migrations and the stored procedures a package keeps in its ``sql/proc_*.sql`` (gigflow.db.migrate runs them).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from functools import cache
from importlib.resources import files
from typing import TypeVar

from psycopg.rows import class_row, scalar_row

Row = TypeVar("Row")

# "-- name: <name>" (procrastinate's trailing " --" allowed) on a line of its own, then the description lines.
_NAME = re.compile(r"^--\s*name:\s*(?P<name>\S+?)\s*(?:--)?\s*$")
_VALID_NAME = re.compile(r"^[a-z_][a-z0-9_]*$")


class QueryNotFound(LookupError):
    """A named query that its file does not hold."""


class QueryFileError(ValueError):
    """A named-queries file that cannot be read as one: a bad or repeated name, text before the first name, or a
    name with no SQL."""


class Queries(Mapping):
    """The named queries of one file: read-only, and a missing name says which file and which name."""

    def __init__(self, source: str, queries: dict[str, str]):
        self.source = source
        self._queries = queries

    def __getitem__(self, name: str) -> str:
        try:
            return self._queries[name]
        except KeyError:
            raise QueryNotFound(f"{self.source} has no query named {name!r} "
                                f"(it has: {', '.join(sorted(self._queries)) or 'none'})") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._queries)

    def __len__(self) -> int:
        return len(self._queries)

    def __repr__(self) -> str:
        return f"Queries({self.source!r}, {sorted(self._queries)})"


def parse_queries(text: str, source: str) -> Queries:
    """Split a named-queries file into {name: SQL}; the description comment lines after a name are left out of
    its SQL. A file header of comment lines before the first name is allowed; anything else there is an error."""
    queries: dict[str, str] = {}
    name, body, in_description = None, [], False

    def close(line_no: int):
        sql = "\n".join(body).strip()
        if not sql:
            raise QueryFileError(f"{source}:{line_no}: query {name!r} has no SQL")
        queries[name] = sql

    for line_no, line in enumerate(text.splitlines(), start=1):
        match = _NAME.match(line.strip())
        if match:
            if name is not None:
                close(line_no)
            name = match["name"]
            if not _VALID_NAME.match(name):
                raise QueryFileError(f"{source}:{line_no}: {name!r} is not a query name (lower case, digits, _)")
            if name in queries:
                raise QueryFileError(f"{source}:{line_no}: query {name!r} is named twice")
            body, in_description = [], True
            continue
        if name is None:
            if line.strip() and not line.lstrip().startswith("--"):
                raise QueryFileError(f"{source}:{line_no}: SQL before the first '-- name:' line")
            continue
        if in_description and line.lstrip().startswith("--"):
            continue
        in_description = False
        body.append(line)
    if name is not None:
        close(len(text.splitlines()))
    return Queries(source, queries)


@cache
def load_queries(package: str, filename: str) -> Queries:
    """The named queries of ``filename`` (e.g. ``"jobs.sql"``) in ``package``'s folder, read and parsed once."""
    text = (files(package) / filename).read_text(encoding="utf-8")
    return parse_queries(text, f"{package.replace('.', '/')}/{filename}")


def fetch_row(conn, row: type[Row], sql: str, params=None, **kwargs) -> Row | None:
    """The first row of ``sql`` as a ``row`` instance, or None. Runs on its own cursor: the connection's row factory
    (dicts) is left as it is."""
    with conn.cursor(row_factory=class_row(row)) as cursor:
        return cursor.execute(sql, params, **kwargs).fetchone()


def fetch_rows(conn, row: type[Row], sql: str, params=None, **kwargs) -> list[Row]:
    """Every row of ``sql`` as ``row`` instances (``kwargs``: ``prepare`` and the like, as ``execute`` takes)."""
    with conn.cursor(row_factory=class_row(row)) as cursor:
        return cursor.execute(sql, params, **kwargs).fetchall()


def fetch_value(conn, sql: str, params=None, **kwargs):
    """The first column of the first row of ``sql`` (an id, a count), or None when there is no row."""
    with conn.cursor(row_factory=scalar_row) as cursor:
        return cursor.execute(sql, params, **kwargs).fetchone()


def fetch_values(conn, sql: str, params=None, **kwargs) -> list:
    """The first column of every row of ``sql``."""
    with conn.cursor(row_factory=scalar_row) as cursor:
        return cursor.execute(sql, params, **kwargs).fetchall()
