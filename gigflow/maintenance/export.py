"""Canonical jobs as a stream of dicts (a server-side cursor: memory stays flat however many jobs there are),
and writers for jsonl, json, csv and table."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Iterator
from dataclasses import asdict
from datetime import date, datetime
from typing import TextIO

from psycopg_pool import ConnectionPool

from gigflow.maintenance import canonical
from gigflow.safety.display import json_display_safe, spreadsheet_cell
from gigflow.text_table import table

FORMATS = ("table", "jsonl", "csv", "json")
# The best sighting's facts as flat columns (every format), then the nested detail (JSON in CSV cells).
FLAT = ["remote", "date_posted", "valid_through", "closed_notice", "employment_type", "employment_types",
        "salary_text", "salary_min", "salary_max", "salary_currency", "salary_period", "salary_annual_min",
        "salary_annual_max"]
COLUMNS = ["id", "title", "employer", "location", *FLAT, "url", "apply_url", "link_status", "quality_score",
           "published_at", "expired_at", "stale_at", "first_seen", "last_seen", "description_markdown", "evidence",
           "quality_parts", "fields", "sightings", "link_checks"]


def canonical_jobs(pool: ConnectionPool, *, source_id: str | None = None, published: bool = False,
                   since: datetime | date | None = None, canonical_id: int | None = None,
                   batch: int = 200) -> Iterator[dict]:
    """The export's records (dicts: the columns of every format, see ``flat``)."""
    with pool.connection() as conn, conn.transaction():
        for row in canonical.export_rows(conn, source_id=source_id, published=published, since=since,
                                         canonical_id=canonical_id, batch=batch):
            yield flat(asdict(row))


def flat(row: dict) -> dict:
    """The row with the best sighting's dates, salary, employment types and remote flag as top-level columns
    (a spreadsheet or a feed reads them without unpacking `fields`), columns in COLUMNS order."""
    fields = row.get("fields") or {}
    salary = fields.get("salary") or {}
    types = fields.get("employment_types") or []
    values = {"remote": fields.get("remote"), "date_posted": fields.get("date_posted"),
              "valid_through": fields.get("valid_through"), "closed_notice": fields.get("closed_notice"),
              "employment_type": fields.get("employment_type"),
              "employment_types": ",".join(types) if isinstance(types, list) else types,
              "salary_text": fields.get("salary_text") or salary.get("raw"),
              "salary_min": salary.get("min"), "salary_max": salary.get("max"),
              "salary_currency": salary.get("currency"), "salary_period": salary.get("unit"),
              "salary_annual_min": salary.get("annual_min"), "salary_annual_max": salary.get("annual_max")}
    if not row.get("description_markdown"):
        values["description_markdown"] = fields.get("description")
    merged = {**row, **values}
    return {name: merged.get(name) for name in COLUMNS} | {k: v for k, v in merged.items() if k not in COLUMNS}


def _plain(value):
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    raise TypeError(f"not JSON: {type(value).__name__}")


def write(rows: Iterable[dict], fmt: str, out: TextIO) -> int:
    """Write rows in ``fmt`` as they come; returns how many."""
    count = 0
    if fmt == "jsonl":
        for count, row in enumerate(rows, 1):
            out.write(json_display_safe(json.dumps(row, default=_plain, ensure_ascii=False)) + "\n")
    elif fmt == "json":
        out.write("[")
        for count, row in enumerate(rows, 1):
            out.write(("," if count > 1 else "") + "\n"
                      + json_display_safe(json.dumps(row, default=_plain, ensure_ascii=False)))
        out.write("\n]\n")
    elif fmt == "csv":
        writer = csv.DictWriter(out, fieldnames=COLUMNS, extrasaction="ignore")
        writer.writeheader()
        for count, row in enumerate(rows, 1):
            writer.writerow({k: spreadsheet_cell(json.dumps(v, default=_plain, ensure_ascii=False)
                                              if isinstance(v, (dict, list)) else _cell(v)) for k, v in row.items()})
    elif fmt == "table":
        page: list[dict] = []
        for count, row in enumerate(rows, 1):
            page.append({**row, "sources": ",".join(sorted({s["source_id"] for s in row["sightings"]})),
                         "published": "yes" if row["published_at"] else "no"})
            if len(page) == 100:
                out.write(table(page, _TABLE, _WIDTHS) + "\n")
                page = []
        if page:
            out.write(table(page, _TABLE, _WIDTHS) + "\n")
        out.write(f"\n{count} canonical job(s)\n")
    else:
        raise ValueError(f"unknown format {fmt!r}: use one of {', '.join(FORMATS)}")
    return count


def _cell(value):
    return value.isoformat() if isinstance(value, (datetime, date)) else value


_TABLE = ["id", "title", "employer", "location", "link_status", "quality_score", "published", "sources", "url"]
_WIDTHS = {"title": 40, "employer": 24, "location": 24, "url": 60, "sources": 30}
