"""Reviewed route tables: validation, fail-closed extraction, watch-list entries."""

import pytest

from gigflow.adapters import extract
from gigflow.adapters.routes import RouteTableError, load_table, routes, watch_list
from helpers import FIXTURES

CORDA = (FIXTURES / "adapters" / "routes" / "corda-jobs" / "input.html").read_bytes()


def test_shipped_tables_validate_and_name_every_reviewed_source():
    table = routes()
    assert {"corda-campus", "sck-cen", "cipal-schaubroeck", "vanroey", "ntx-netropolix", "thomas-more",
            "ziekenhuis-geel", "lokaal-bestuur-geel", "stad-turnhout", "group-renotec", "ravago", "sanofi",
            "daf-trucks-westerlo", "gemeente-mol"} == set(table)
    assert [route.name for route in table.values() if route.scannable] == ["corda-campus"]
    assert all(route.watch_reason for route in watch_list())
    assert table["thomas-more"].requires_marker and table["thomas-more"].requires_employer_id
    assert table["gemeente-mol"].format == "rss"


def test_corda_campus_keeps_listed_employers_and_rejects_off_host_links():
    result = extract(CORDA, url="https://cordacampus.com/jobs/", parser_key="route:corda-campus")
    assert result.parser_key == "route:corda-campus" and result.kind == "listing"
    assert [(job.title, job.employer) for job in result.jobs] == [("Full-stack developer", "Example Software NV"),
                                                                  ("Office manager", "Campus Services BV")]
    assert all(job.provenance == {"route": "corda-campus", "follow_details": "false"} for job in result.jobs)
    assert any("rejected off-host job link https://jobs.elsewhere.example" in w for w in result.warnings)
    route = routes()["corda-campus"]
    assert route.may_fetch("https://cordacampus.com/jobs/")
    assert not route.may_fetch("https://cordacampus.com/jobs/full-stack-developer-example-software/")  # no details
    assert not route.may_fetch("http://cordacampus.com/jobs/") and not route.may_fetch("https://evil.example/jobs/")


def test_routes_fail_closed_on_wrong_host_path_or_missing_marker():
    wrong_host = extract(CORDA, url="https://corda.example/jobs/", parser_key="route:corda-campus")
    wrong_path = extract(CORDA, url="https://cordacampus.com/news/", parser_key="route:corda-campus")
    for result in (wrong_host, wrong_path):
        assert result.jobs == []  # and no generic guess either
    assert "not on https://cordacampus.com" in wrong_host.warnings[0]
    assert "not the reviewed list path" in wrong_path.warnings[0]
    marked = load_table("test.yaml", """reviewed: test
routes:
  - {name: marked, employer: Marked NV, scannable: true, host: marked.example, list_path: /vacatures,
     requires_marker: true, marker: 'data-employer="marked"', reviewed_location: Mol, follow_details: true,
     job_path_prefix: /vacatures/, robots_excluded_prefixes: [/vacatures/intern/]}""").routes[0]
    from gigflow.adapters.routes import RouteAdapter
    page = b'<main><a href="/vacatures/lasser">Lasser</a></main>'
    assert RouteAdapter(marked).extract(page, url="https://marked.example/vacatures").jobs == []
    [job] = RouteAdapter(marked).extract(page.replace(b"<main>", b'<main data-employer="marked">'),
                                         url="https://marked.example/vacatures").jobs
    assert (job.employer, job.location) == ("Marked NV", "Mol")
    assert marked.may_fetch("https://marked.example/vacatures/lasser")
    assert not marked.may_fetch("https://marked.example/vacatures/intern/x")


def test_watch_list_entries_are_never_scanned():
    result = extract(CORDA, url="https://cordacampus.com/jobs/", parser_key="route:thomas-more")
    assert result.jobs == [] and "watch-list entry, not scannable" in result.warnings[0]


def test_invalid_tables_name_what_is_wrong():
    with pytest.raises(RouteTableError, match="scannable but missing marker, employer_id"):
        load_table("bad.yaml", """reviewed: x
routes: [{name: tm, employer: TM, scannable: true, host: tm.example, list_path: /jobs,
          requires_marker: true, requires_employer_id: true}]""")
    with pytest.raises(RouteTableError, match="bare lower-case DNS name"):
        load_table("bad.yaml", "reviewed: x\nroutes: [{name: h, employer: H, scannable: true, "
                               "host: 'https://h.example/jobs', list_path: /jobs}]")
    with pytest.raises(RouteTableError, match="watch_reason"):
        load_table("bad.yaml", "reviewed: x\nroutes: [{name: watched, employer: W, scannable: false}]")
    with pytest.raises(KeyError, match="unknown route 'nope'"):
        from gigflow.adapters.routes import route_adapter
        route_adapter("nope")


def test_rss_route_takes_same_host_entries_only():
    from gigflow.adapters.routes import RouteAdapter

    route = load_table("rss.yaml", """reviewed: test
routes:
  - {name: town-feed, employer: Example Town, scannable: true, format: rss, host: town.example,
     list_path: /vacatures/rss}""").routes[0]
    feed = b"""<?xml version="1.0"?><rss version="2.0"><channel><title>Vacatures</title>
    <item><title>Boekhouder</title><link>https://www.town.example/vacatures/boekhouder</link><guid>v-1</guid></item>
    <item><title>Elders</title><link>https://jobs.elsewhere.example/v/2</link><guid>v-2</guid></item>
    </channel></rss>"""
    result = RouteAdapter(route).extract(feed, url="https://town.example/vacatures/rss")
    assert [(job.title, job.employer) for job in result.jobs] == [("Boekhouder", "Example Town")]
    assert result.jobs[0].evidence["url"].method == "feed"
    assert any("off-host" in warning for warning in result.warnings)
