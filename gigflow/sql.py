"""SQL lives in .sql files beside the code that runs it; this loads them once."""

from functools import cache
from importlib.resources import files


@cache
def load_sql(package: str, name: str) -> str:
    """Return the text of ``name`` (e.g. ``"upsert_job.sql"``) in ``package``'s ``sql/`` folder."""
    return (files(package) / "sql" / name).read_text(encoding="utf-8")
