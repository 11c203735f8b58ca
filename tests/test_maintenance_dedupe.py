"""Entity resolution end to end (README "Job maintenance"): one vacancy crawled through its career page (href),
its sitemap, its feed and its Greenhouse board over real HTTP is one canonical job with evidence; the same title
in another city is not; `scrapy jobs unmerge` reverses a link; exports carry the sightings."""

from __future__ import annotations

import csv
import io
import json

from scripted_server import Reply, ScriptedServer
from helpers import crawl_sequence, import_source, scrapy_command

DESCRIPTION = ("You weld steel frames for our conveyor systems, read drawings, check your seams and keep the "
               "workshop safe. Two years of MIG and TIG welding, a forklift licence is a plus. ")


def page(base: str, city: str, gh_jid: int) -> bytes:
    posting = {"@context": "https://schema.org", "@type": "JobPosting", "title": "Welder",
               "hiringOrganization": {"@type": "Organization", "name": "Acme Works"},
               "jobLocation": {"@type": "Place", "address": {"@type": "PostalAddress", "addressLocality": city}},
               "description": DESCRIPTION + f"Based in {city}."}
    return (f'<html><head><title>Welder</title><script type="application/ld+json">{json.dumps(posting)}</script>'
            f'</head><body><h1>Welder</h1><p>{DESCRIPTION} Based in {city}.</p>'
            f'<a href="{base}/acme/apply?gh_jid={gh_jid}">Apply now</a></body></html>').encode()


def route_for(holder: dict):
    def route(path: str, headers: dict) -> Reply:
        base = holder["base"]
        xml = {"Content-Type": "application/xml"}
        if path == "/robots.txt":
            return Reply(body=f"User-agent: *\nAllow: /\nSitemap: {base}/sitemap.xml\n".encode(),
                         headers={"Content-Type": "text/plain"})
        if path == "/acme/":
            return Reply(body=b'<html><body><ul><li class="job-card"><a href="/acme/jobs/welder-berlin">Welder</a>'
                              b'</li><li class="job-card"><a href="/acme/jobs/welder-munich">Welder</a></li>'
                              b'</ul></body></html>')
        if path.startswith("/acme/jobs/welder-berlin"):
            return Reply(body=page(base, "Berlin", 4012345))
        if path.startswith("/acme/jobs/welder-munich"):
            return Reply(body=page(base, "Munich", 4012399))
        if path == "/sitemap.xml":
            return Reply(body=(f'<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
                               f'<url><loc>{base}/acme/jobs/welder-berlin?utm_source=sitemap</loc></url></urlset>')
                         .encode(), headers=xml)
        if path == "/acme/feed.xml":
            return Reply(body=(f'<?xml version="1.0"?><rss version="2.0"><channel><title>Acme jobs</title>'
                               f'<item><title>Welder</title><link>{base}/acme/jobs/welder-berlin?utm_medium=rss'
                               f'&amp;utm_campaign=jobs</link><description>{DESCRIPTION}</description></item>'
                               f'</channel></rss>').encode(), headers={"Content-Type": "application/rss+xml"})
        if path.startswith("/v1/boards/acme/jobs"):
            jobs = [{"id": jid, "title": "Welder", "absolute_url": f"https://boards.greenhouse.io/acme/jobs/{jid}",
                     "location": {"name": city}, "updated_at": "2026-11-20T10:00:00Z", "company_name": "Acme Works",
                     "content": f"&lt;p&gt;{DESCRIPTION} Based in {city}.&lt;/p&gt;"}
                    for jid, city in ((4012345, "Berlin"), (4012399, "Munich"), (4012500, "Hamburg"))]
            return Reply(body=json.dumps({"jobs": jobs, "meta": {"total": 3}}).encode(),
                         headers={"Content-Type": "application/json"})
        return Reply(status=404, body=b"not found")

    return route


def canonical_sightings(pool) -> dict[int, list[dict]]:
    with pool.connection() as conn:
        rows = conn.execute("SELECT l.canonical_id, l.evidence, l.score, j.id AS job_id, j.source_id, "
                            "j.fields->>'location' AS location FROM canonical_links l JOIN jobs j ON j.id = l.job_id "
                            "JOIN canonical_jobs c ON c.id = l.canonical_id WHERE c.merged_into IS NULL "
                            "ORDER BY l.canonical_id, j.source_id").fetchall()
    found: dict[int, list[dict]] = {}
    for row in rows:
        found.setdefault(row["canonical_id"], []).append(row)
    return found


def test_one_vacancy_through_href_sitemap_feed_and_ats_is_one_canonical_job(pool):
    holder: dict = {}
    with ScriptedServer(route_for(holder)) as server:
        base = holder["base"] = server.url
        sources = [
            {"id": "acme-href", "canonical_url": f"{base}/acme/", "strategies": [
                {"type": "href", "listing_urls": [f"{base}/acme/"], "card_selector": "li.job-card",
                 "job_url_patterns": ["/acme/jobs/"]}]},
            {"id": "acme-sitemap", "canonical_url": f"{base}/", "strategies": [
                {"type": "sitemap", "job_url_patterns": ["/acme/jobs/"]}]},
            {"id": "acme-feed", "canonical_url": f"{base}/acme/feed", "strategies": [
                {"type": "feed", "feed_urls": [f"{base}/acme/feed.xml"]}]},
            {"id": "acme-ats", "canonical_url": "https://acme.example/careers", "strategies": [
                {"type": "ats", "provider": "greenhouse", "board_id": "acme"}]},
        ]
        for source in sources:
            import_source(pool, {**source, "company": "Acme Works", "status": "active"}, base)
        codes = crawl_sequence(("href", "acme-href"), ("sitemap", "acme-sitemap"), ("feed", "acme-feed"),
                               ("ats", "acme-ats", {"ATS_BASE_URLS": json.dumps({"greenhouse": base})}))
    assert codes == [0, 0, 0, 0]
    groups = canonical_sightings(pool)
    by_sources = {tuple(r["source_id"] for r in rows): rows for rows in groups.values()}
    berlin = by_sources[("acme-ats", "acme-feed", "acme-href", "acme-sitemap")]
    munich = by_sources[("acme-ats", "acme-href")]
    assert len(groups) == 3 and ("acme-ats",) in by_sources  # Hamburg: same title and text, another city
    kinds = {e["kind"] for r in berlin for e in r["evidence"]}
    assert {"ats_id", "same_url"} <= kinds and all(r["score"] == 1.0 for r in berlin)
    assert {r["location"] for r in munich} <= {"Munich", None}

    feed_job = next(r["job_id"] for r in berlin if r["source_id"] == "acme-feed")
    result = scrapy_command("jobs", "unmerge", str(feed_job))
    assert result.returncode == 0, result.stderr
    assert len(canonical_sightings(pool)) == 4
    again = scrapy_command("jobs", "unmerge", str(feed_job))
    assert again.returncode == 1 and "only sighting" in again.stderr and "Traceback" not in again.stderr
    bad = scrapy_command("jobs", "unmerge", "feed")
    assert bad.returncode == 2 and "not a job id" in bad.stderr

    exported = [json.loads(line) for line in scrapy_command("jobs", "--format", "jsonl").stdout.splitlines()]
    assert sorted(len(job["sightings"]) for job in exported) == [1, 1, 2, 3]
    three = next(job for job in exported if len(job["sightings"]) == 3)
    assert {s["source_id"] for s in three["sightings"]} == {"acme-ats", "acme-href", "acme-sitemap"}
    assert all("link_evidence" in s and "evidence" in s for s in three["sightings"])
    only_feed = scrapy_command("jobs", "--format", "csv", "--source", "acme-feed").stdout
    rows = list(csv.DictReader(io.StringIO(only_feed)))
    assert len(rows) == 1 and json.loads(rows[0]["sightings"])[0]["source_id"] == "acme-feed"
    assert json.loads(scrapy_command("jobs", "--format", "json", "--published").stdout) == []
    bad_date = scrapy_command("jobs", "--format", "json", "--since", "yesterday")
    assert bad_date.returncode == 2 and "not an ISO date" in bad_date.stderr and bad_date.stdout == ""


def test_board_and_feed_jobs_get_markdown_of_their_own_description(pool):
    holder: dict = {}
    with ScriptedServer(route_for(holder)) as server:
        base = holder["base"] = server.url
        for source in ({"id": "acme-feed", "canonical_url": f"{base}/acme/feed", "strategies": [
                            {"type": "feed", "feed_urls": [f"{base}/acme/feed.xml"]}]},
                       {"id": "acme-ats", "canonical_url": "https://acme.example/careers", "strategies": [
                            {"type": "ats", "provider": "greenhouse", "board_id": "acme"}]}):
            import_source(pool, {**source, "company": "Acme Works", "status": "active"}, base)
        crawl_sequence(("feed", "acme-feed"),
                       ("ats", "acme-ats", {"ATS_BASE_URLS": json.dumps({"greenhouse": base})}))
    exported = [json.loads(line) for line in scrapy_command("jobs", "--format", "jsonl").stdout.splitlines()]
    documents = {s["fields"].get("location") or s["source_id"]: s["markdown"]
                 for job in exported for s in job["sightings"]}
    assert set(documents) == {"acme-feed", "Berlin", "Munich", "Hamburg"}
    for city in ("Berlin", "Munich", "Hamburg"):  # each its own text, not the board payload
        assert f"Based in {city}." in documents[city] and "Welder" not in documents[city]
        assert not any(other in documents[city] for other in {"Berlin", "Munich", "Hamburg"} - {city})
        assert "&lt;" not in documents[city] and "{" not in documents[city]
    assert documents["acme-feed"].startswith("You weld steel frames") and "<rss" not in documents["acme-feed"]


def test_a_sighting_linking_two_canonical_jobs_folds_them_and_an_unmerge_keeps_them_apart(pool):
    from gigflow import api

    for source in ("acme-feed", "acme-ats", "acme-page", "acme-mail"):
        import_source(pool, {"id": source, "company": "Acme Works", "canonical_url": f"https://{source}.example/",
                             "strategies": [{"type": "feed", "feed_urls": [f"https://{source}.example/f.xml"]}]},
                      "https://acme.example")

    def sight(source, url, apply_url=None, parser="feed", external_id=None):
        with pool.connection() as conn:
            conn.execute("INSERT INTO jobs (canonical_key, source_id, title, url, external_id, fields, confidence,"
                         " parser_key, parser_version) VALUES (%s, %s, 'Welder', %s, %s, %s, 0.9, %s, '1')",
                         (f"url:{url}", source, url, external_id, json.dumps({"apply_url": apply_url}), parser))
        api.resolve()

    sight("acme-feed", "https://acme.example/jobs/welder?utm_source=rss")
    sight("acme-ats", "https://boards.greenhouse.io/acme/jobs/4012345", parser="greenhouse", external_id="4012345")
    assert len(canonical_sightings(pool)) == 2  # nothing yet says they are one vacancy
    sight("acme-page", "https://acme.example/jobs/welder", apply_url="https://acme.example/apply?gh_jid=4012345")
    [(canonical_id, rows)] = canonical_sightings(pool).items()
    assert {r["source_id"] for r in rows} == {"acme-feed", "acme-ats", "acme-page"}
    with pool.connection() as conn:
        assert conn.execute("SELECT count(*) AS n FROM canonical_jobs WHERE merged_into = %s",
                            (canonical_id,)).fetchone()["n"] == 1
    ats_job = next(r["job_id"] for r in rows if r["source_id"] == "acme-ats")
    api.unmerge(ats_job)
    sight("acme-mail", "https://acme.example/jobs/welder?ref=mail", apply_url="https://acme.example/apply?gh_jid=4012345")
    groups = canonical_sightings(pool)
    assert sorted(sorted(r["source_id"] for r in rows) for rows in groups.values()) == [
        ["acme-ats"], ["acme-feed", "acme-mail", "acme-page"]]
