"""Expected-output fixtures for the adapters, as web-poet's test fixtures: each case is a folder under
fixtures/adapters/<group>/<case>/ with its ``input.<ext>`` (the body as fetched) and ``expected.json``: what the
extraction is given (``given``: URL, content type, parser key, the source's company) and what it must return (``result``).

One runner reads every case. After a deliberate change of an adapter's output, review the difference and
rewrite the expectations with ``python tests/test_adapter_cases.py --update``.
"""

from __future__ import annotations

import json
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from helpers import FIXTURES  # noqa: E402

CASES = FIXTURES / "adapters"
# Relative dates ("3 days ago") are read against the fetch time: one fixed time keeps the expectations stable.
FETCHED_AT = datetime(2026, 12, 1, tzinfo=timezone.utc)
# What a case is given, for the cases that existed before expected.json did (--update writes them).
GIVEN = {
    "ats/greenhouse-codepath-board": {"url": "https://boards.greenhouse.io/codepath", "parser_key": "greenhouse"},
    "ats/greenhouse-codepath-job": {"url": "https://boards-api.greenhouse.io/v1/boards/codepath/jobs/4426096007",
                                    "content_type": "application/json"},
    "ats/greenhouse-smarterdx": {"url": "https://boards-api.greenhouse.io/v1/boards/smarterdx/jobs"},
    "ats/lever-gotogroup": {"url": "https://api.lever.co/v0/postings/GoToGroup?mode=json"},
    "ats/recruitee-radishlab": {"url": "https://radishlab.recruitee.com/api/offers/"},
    "ats/smartrecruiters-gousto": {"url": "https://api.smartrecruiters.com/v1/companies/Gousto1/postings"},
    "ats/smartrecruiters-gousto-posting": {
        "url": "https://api.smartrecruiters.com/v1/companies/Gousto1/postings/744000005631445",
        "content_type": "application/json"},
    "ats/workable-kroo": {"url": "https://apply.workable.com/api/v1/widget/accounts/kroo?details=true"},
    "email/employer-alert": {"url": "inbox/employer-alert.eml"},
    "email/platform-alert": {"url": "mailbox://jobs/INBOX/1.eml"},
    "feeds/atom-jobs": {"url": "https://works.example/feed.atom"},
    "feeds/pxo-workable-rss": {"url": "https://apply.workable.com/pxo/rss", "content_type": "application/rss+xml"},
    "feeds/teamtailor-tibber": {"url": "https://tibber.teamtailor.com/jobs.json", "content_type": "application/json"},
    "feeds/workable-xml": {"url": "https://www.workable.com/boards/workable.xml"},
    "html/labelled-vacancy": {"url": "https://werken.example/v/1", "content_type": "text/html"},
    "routes/corda-jobs": {"url": "https://cordacampus.com/jobs/", "parser_key": "route:corda-campus"},
}


def case_folders() -> list[Path]:
    return sorted(path.parent for path in CASES.glob("*/*/input.*"))


def run_case(folder: Path, given: dict) -> dict:
    """The extraction of one case, as the JSON its expected.json holds (raw payload excerpts left out)."""
    from gigflow.adapters import extract

    [body] = folder.glob("input.*")
    result = extract(body.read_bytes(), url=given["url"], content_type=given.get("content_type"),
                     parser_key=given.get("parser_key"), company=given.get("company"), fetched_at=FETCHED_AT)
    return json.loads(result.model_dump_json(exclude={"jobs": {"__all__": {"raw"}}}))


@pytest.mark.parametrize("folder", case_folders(), ids=lambda folder: f"{folder.parent.name}/{folder.name}")
def test_adapter_case(folder):
    expected = json.loads((folder / "expected.json").read_text(encoding="utf-8"))
    assert run_case(folder, expected["given"]) == expected["result"]


MIN_PAYLOAD_BYTES = 256


def test_every_case_has_its_expectation_and_each_fixture_file_is_kept_once():
    import hashlib

    assert case_folders() and all((folder / "expected.json").is_file() for folder in case_folders())
    digests = {}
    # Payloads, pages and messages are kept once; a few header lines two saved answers share are not a copy.
    for path in sorted(p for p in FIXTURES.rglob("*") if p.is_file() and p.stat().st_size >= MIN_PAYLOAD_BYTES):
        digests.setdefault(hashlib.sha256(path.read_bytes()).hexdigest(), []).append(str(path.relative_to(FIXTURES)))
    assert [paths for paths in digests.values() if len(paths) > 1] == []


if __name__ == "__main__" and "--update" in sys.argv:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    for folder in case_folders():
        target = folder / "expected.json"
        key = f"{folder.parent.name}/{folder.name}"
        given = json.loads(target.read_text(encoding="utf-8"))["given"] if target.is_file() else GIVEN[key]
        target.write_text(json.dumps({"given": given, "result": run_case(folder, given)}, indent=1,
                                     ensure_ascii=False) + "\n", encoding="utf-8")
        print("wrote", target)
