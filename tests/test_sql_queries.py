"""Named-queries files (gigflow.sql.load_queries): one file per table family, ``-- name:`` sections."""

from __future__ import annotations

import importlib
import sys

import pytest

from gigflow.sql import QueryFileError, QueryNotFound, load_queries, parse_queries

QUERIES = """\
-- Header comment lines before the first name are the file's own description.

-- name: find_thing
-- The thing under this key.
-- (a second description line)
SELECT id, title
FROM things WHERE key = %(key)s  -- a comment inside the SQL stays

-- name: count_things --
SELECT count(*) AS n FROM things
"""


@pytest.fixture
def queries_package(tmp_path, monkeypatch):
    """A real package on disk holding a named-queries file, imported the way gigflow's own are."""
    package = tmp_path / "named_queries_pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "things.sql").write_text(QUERIES, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    yield "named_queries_pkg"
    sys.modules.pop("named_queries_pkg", None)
    load_queries.cache_clear()


def test_load_queries_reads_each_named_section_without_its_description(queries_package):
    queries = load_queries(queries_package, "things.sql")
    assert sorted(queries) == ["count_things", "find_thing"]
    assert queries["find_thing"] == ("SELECT id, title\n"
                                     "FROM things WHERE key = %(key)s  -- a comment inside the SQL stays")
    assert queries["count_things"] == "SELECT count(*) AS n FROM things"
    assert load_queries(queries_package, "things.sql") is queries  # read once


def test_a_missing_query_names_the_file_and_the_name(queries_package):
    queries = load_queries(queries_package, "things.sql")
    with pytest.raises(QueryNotFound) as raised:
        queries["find_thingz"]
    message = str(raised.value)
    assert "named_queries_pkg/things.sql" in message and "'find_thingz'" in message and "find_thing" in message


@pytest.mark.parametrize(("text", "error"), [
    ("SELECT 1\n-- name: a\nSELECT 2\n", "SQL before the first '-- name:' line"),
    ("-- name: a\nSELECT 1\n-- name: a\nSELECT 2\n", "query 'a' is named twice"),
    ("-- name: a\n-- only a description\n-- name: b\nSELECT 2\n", "query 'a' has no SQL"),
    ("-- name: Bad-Name\nSELECT 1\n", "is not a query name"),
])
def test_a_malformed_file_is_refused_with_its_line(text, error):
    with pytest.raises(QueryFileError, match=error) as raised:
        parse_queries(text, "pkg/bad.sql")
    assert str(raised.value).startswith("pkg/bad.sql:")
