"""Hostile input, round 3 (issue #30): each test names the finding it guards."""

from __future__ import annotations

import json

import pytest

from helpers import crawl, last_run
from scripted_server import Reply, ScriptedServer, source
from gigflow.sources.loader import parse_sources
from gigflow.sources.repository import import_sources

# JSON-LD as a hostile page writes it: bare NaN/Infinity and 1e999 (Python's json reads them as floats), and a lone
# surrogate escape (a str Python holds but UTF-8 and PostgreSQL cannot).
HOSTILE_POSTINGS = {
    "0": '"baseSalary": {"@type": "MonetaryAmount", "currency": "EUR", "value": {"minValue": NaN, "maxValue": 5000}}',
    "1": '"baseSalary": {"@type": "MonetaryAmount", "currency": "EUR", "value": {"minValue": Infinity}}',
    "2": '"baseSalary": {"@type": "MonetaryAmount", "currency": "EUR", "value": {"minValue": 1e999}}',
    "3": '"description": "Great \\ud800 team", "employmentType": "FULL_TIME \\ud800", "title": "Engineer 3 \\udfff"',
}


def _hostile_site(path: str, headers: dict) -> Reply:
    if path == "/robots.txt":
        return Reply(body=b"User-agent: *\nAllow: /\n", headers={"Content-Type": "text/plain"})
    if path == "/h/":
        cards = "".join(f'<li class="job-card"><a href="/h/jobs/{i}.html">Job {i}</a></li>' for i in HOSTILE_POSTINGS)
        return Reply(body=f"<html><body><ul>{cards}</ul></body></html>".encode())
    number = path.rsplit("/", 1)[-1].split(".")[0]
    if path.startswith("/h/jobs/") and number in HOSTILE_POSTINGS:
        posting = ('{"@context": "https://schema.org", "@type": "JobPosting", "title": "Engineer %s", '
                   '"hiringOrganization": {"@type": "Organization", "name": "Acme"}, %s}' % (number, HOSTILE_POSTINGS[number]))
        return Reply(body=(f'<html><head><title>Engineer {number}</title><script type="application/ld+json">{posting}'
                           f"</script></head><body><h1>Engineer {number}</h1><p>Work.</p></body></html>").encode())
    return Reply(status=404, body=b"not found")


def test_hostile_jsonld_numbers_and_strings_cost_a_field_not_the_job_nor_the_log(pool):
    """#30 finding 5: NaN, Infinity, 1e999 and a lone \\ud800 raised in storage (run incomplete:store_failed, a
    ~340-line traceback holding the item). Now each bad field is dropped with a warning and every job is kept."""
    with ScriptedServer(_hostile_site) as server:
        import_sources(pool, parse_sources({"sources": [source("hostile-ld", server.url, "/h")]}))
        result = crawl("href", "hostile-ld", "LOG_LEVEL=DEBUG")
    run = last_run(pool)
    assert run["outcome"] == "finished", (run["outcome"], result.stderr[-3000:])
    with pool.connection() as conn:
        rows = conn.execute("SELECT title, fields FROM jobs WHERE source_id = 'hostile-ld' ORDER BY title").fetchall()
    assert len(rows) == 4, rows
    salaries = {row["title"]: (row["fields"].get("salary") or {}) for row in rows}
    assert salaries["Engineer 0"].get("max") == 5000 and salaries["Engineer 0"].get("min") is None
    assert salaries["Engineer 1"].get("min") is None and salaries["Engineer 2"].get("min") is None
    third = next(row for row in rows if row["title"].startswith("Engineer 3"))
    assert "\ufffd" in third["title"] and "employment_type" not in third["fields"]
    assert "Traceback" not in result.stderr
    assert "Great" not in result.stderr and "<html" not in result.stderr  # no item bodies, even at DEBUG
    assert "dropped: it held invalid Unicode" in result.stderr
