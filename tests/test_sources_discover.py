"""Finding the ATS behind a career site: the recogniser on corpus career pages and boards, `scrapy sources discover`
end to end (one guarded fetch, a source that imports and crawls), and the ATS hint an HTML crawl records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from gigflow.adapters.ats.recognise import board_of, posting_of, recognise_page
from gigflow.health.report import overview
from gigflow.sources.discover import propose_source
from helpers import SHARED, crawl, import_source, last_run, scrapy_command
from scripted_server import Reply, ScriptedServer

LISTINGS = SHARED / "corpus" / "listings"

# (corpus listing, the page's URL, provider, board): career pages that link to or embed a board, and hosted boards.
PAGES = [
    ("airtable", "https://airtable.com/careers", "greenhouse", "airtable"),
    ("cloudflare", "https://www.cloudflare.com/careers/jobs/", "greenhouse", "cloudflare"),
    ("flaconi-de", "https://www.flaconi.de/karriere/", "greenhouse", "flaconi"),
    ("greenhouse-codepath", "https://boards.greenhouse.io/codepath", "greenhouse", "codepath"),
    ("plaid", "https://plaid.com/careers/openings/", "lever", "plaid"),
    ("vectara", "https://vectara.com/careers/", "lever", "vectara"),
    ("lever-gotogroup", "https://jobs.lever.co/GoToGroup", "lever", "GoToGroup"),
    ("blueorchard", "https://www.blueorchard.com/careers/", "bamboohr", "blueorchard"),
    ("pinpoint-bathspa", "https://bathspa.pinpointhq.com/", "pinpoint", "bathspa"),
    ("icims-emory", "https://clinical-emory.icims.com/jobs/search?ss=1", "icims", "clinical-emory"),
    ("icims-gdms", "https://careers-gdms.icims.com/jobs/search?ss=1", "icims", "careers-gdms"),
    ("icims-tfghospitality", "https://careers-tfghospitality.icims.com/jobs/search?ss=1", "icims",
     "careers-tfghospitality"),
    ("avature-ally", "https://ally.avature.net/careers/SearchJobs", "avature", "ally.avature.net/careers"),
    ("avature-forvis", "https://forvis.avature.net/campuscareers/SearchJobs", "avature",
     "forvis.avature.net/campuscareers"),
    ("avature-xerox", "https://xerox.avature.net/en_US/careers/SearchJobs", "avature",
     "xerox.avature.net/en_US/careers"),
]


@pytest.mark.skipif(not LISTINGS.is_dir(), reason="needs ../shared/corpus")
@pytest.mark.parametrize("name, url, provider, board", PAGES, ids=[p[0] for p in PAGES])
def test_discover_names_the_provider_and_board_behind_corpus_career_pages(name, url, provider, board):
    body = sorted((LISTINGS / name).glob("*.html"))[0].read_bytes()
    proposal = propose_source(body, url)
    best = proposal.findings[0]
    assert (best.provider, best.board) == (provider, board), [(f.provider, f.board, f.score) for f in proposal.findings[:3]]
    assert best.confidence >= 0.5 and best.evidence
    [strategy] = proposal.source["strategies"]
    if best.supported:
        assert strategy == {"type": "ats", "provider": provider, "board_id": board}
    else:  # iCIMS, Avature: an href strategy on the hosted board whose cards and job links it infers
        assert strategy["type"] == "href" and strategy["job_url_patterns"]
        assert provider in proposal.reasons[0]


def test_embed_scripts_iframes_and_board_urls_of_every_provider_are_recognised():
    cases = {
        "https://boards.greenhouse.io/embed/job_board/js?for=acme": ("greenhouse", "acme", "embed"),
        "https://job-boards.eu.greenhouse.io/embed/job_board?for=acme&b=https%3A%2F%2Facme.example": ("greenhouse", "acme", "embed"),
        "https://jobs.ashbyhq.com/acme/embed?version=2": ("ashby", "acme", "embed"),
        "https://jobs.ashbyhq.com/Acme%20Labs": ("ashby", "Acme Labs", "board"),
        "https://acme.wd5.myworkdayjobs.com/en-US/External/job/Ghent/Nurse_R12": ("workday", "acme.wd5/External", "job"),
        "https://acme.wd1.myworkdayjobs.com/Careers": ("workday", "acme.wd1/Careers", "board"),
        "https://acme-gmbh.jobs.personio.de/job/1234?language=de": ("personio", "acme-gmbh", "job"),
        "https://acme.jobs.personio.com/": ("personio", "acme.com", "board"),
        "https://acme.teamtailor.com/jobs/123-welder": ("teamtailor", "acme", "job"),
        "https://acme.bamboohr.com/js/embed.js": ("bamboohr", "acme", "embed"),
        "https://acme.breezy.hr/p/ab12cd34ef56-cook": ("breezy", "acme", "job"),
        "https://acme.pinpointhq.com/en/postings/68fd9afd-7f4c-4d6f-b286-5b570e8321f6": ("pinpoint", "acme", "job"),
        "https://www.careers-page.com/acme-group/job/QVXR6YY8": ("manatal", "acme-group", "job"),
        "https://jobs.eu.lever.co/acme/0b6bd2b3-1b1a-4a9c-9d2e-4a1f2b3c4d5e": ("lever", "acme", "job"),
        "https://careers.smartrecruiters.com/Acme1": ("smartrecruiters", "Acme1", "board"),
        "https://apply.workable.com/acme/j/AB12CD34EF/": ("workable", "acme", "job"),
        "https://acme.recruitee.com/o/welder": ("recruitee", "acme", "job"),
        "https://careers-acme.icims.com/jobs/1234/welder/job": ("icims", "careers-acme", "job"),
    }
    for url, expected in cases.items():
        ref = board_of(url)
        assert ref is not None and (ref.provider, ref.board, ref.kind) == expected, url
    assert board_of("https://jobs.eu.lever.co/acme").region == "eu"
    for url in ("https://www.greenhouse.io/careers", "https://boards.greenhouse.io/embed/job_board", "https://api.lever.co/",
                "https://cdn02.icims.com/x.js", "https://www.teamtailor.com/en/", "https://acme.example/jobs"):
        ref = board_of(url)
        assert ref is None or ref.kind != "embed" and ref.board not in ("embed", "www", "cdn02"), url
    page = (b'<html><body><div id="grnhse_app"></div>'
            b'<script src="https://boards.greenhouse.io/embed/job_board/js?for=northwind"></script></body></html>')
    [finding] = recognise_page(page, "https://northwind.example/careers")
    assert (finding.provider, finding.board) == ("greenhouse", "northwind") and finding.confidence >= 0.5


# Where the apply-link table and discovery's table used to disagree, each decided once (docs/ats.md): (URL, the
# board it names as (provider, board, kind) or None, the provider when it is one posting's page or None).
EDGES = [
    # A port or an upper-case host names the same board; a board read from a host is lower-case.
    ("https://ACME.teamtailor.com:443/jobs/123-welder", ("teamtailor", "acme", "job"), "teamtailor"),
    ("https://acme.wd5.myworkdayjobs.com:443/en-US/External/job/Ghent/Nurse_R12", ("workday", "acme.wd5/External", "job"),
     "workday"),
    # iCIMS's search page is its board, not a posting.
    ("https://careers-gdms.icims.com/jobs/search?in_iframe=1", ("icims", "careers-gdms", "board"), None),
    # A provider's asset host is no posting, whatever its path looks like.
    ("https://c.smartrecruiters.com/sr-employee-image-prod-aws-dc5/63330921f6085e2908c6113b", None, None),
    # One job's API endpoint answers JSON to no applicant: the board, never a posting.
    ("https://boards-api.greenhouse.io/v1/boards/codepath/jobs/4040346007?questions=true",
     ("greenhouse", "codepath", "api"), None),
    ("https://api.teamtailor.com/v1/jobs/26", None, None),
    # Postings one table knew and the other did not.
    ("https://apply.workable.com/j/0146117894", None, "workable"),  # a short link: no board named
    ("https://ally.avature.net/careers/JobDetail/Consumer-Underwriter/17030", ("avature", "ally.avature.net/careers", "job"),
     "avature"),
    ("https://www.careers-page.com/acme-group/job/QVXR6YY8", ("manatal", "acme-group", "job"), "manatal"),
    ("https://boards.greenhouse.io/embed/job_app?token=4011&for=acme", ("greenhouse", "acme", "job"), "greenhouse"),
    # an embedded form by its token alone is a posting (its board unsaid); a provider's address inside another
    # site's redirect query is that site's link
    ("https://boards.greenhouse.io/embed/job_app?token=4011", None, "greenhouse"),
    ("https://www.linkedin.com/redir?url=https://jobs.lever.co/acme/0b1c2d3e-4f5a", None, None),
    ("https://wd3.myworkdaysite.com/recruiting/Acme/External/job/Ghent/Nurse_R1", ("workday", "acme.wd3/External", "job"),
     "workday"),
    ("https://jobs.jobvite.com/acme/job/oAbc123", ("jobvite", "acme", "job"), "jobvite"),
    # Jibe: /api/jobs on any host is nobody's until Jibe's own host or its career site's query says so.
    ("https://shop.example/api/jobs?page=1&limit=10", None, None),
    ("https://careers.example.com/api/jobs?page=1&sortBy=relevance&descending=false&internal=false",
     ("jibe", "careers.example.com", "api"), None),
    ("https://acme.jibeapply.com/api/jobs?page=1&limit=100", ("jibe", "acme.jibeapply.com", "api"), None),
]


@pytest.mark.parametrize("url, board, posting", EDGES)
def test_one_table_decides_boards_and_postings_alike(url, board, posting):
    ref = board_of(url)
    assert ((ref.provider, ref.board, ref.kind) if ref else None) == board
    assert posting_of(url) == posting

def test_a_malformed_link_is_skipped_and_base_href_is_honoured():
    # a bad link (urljoin raises on "http://[x") ended discovery with a traceback; relative links resolve
    # against the page's <base href>, as a browser would
    page = (b'<html><head><base href="https://boards.greenhouse.io/"></head><body>'
            b'<a href="http://[x">bad</a><a href="acme/jobs/1">Engineer</a></body></html>')
    found = recognise_page(page, "https://careers.example.com/")
    assert [(f.provider, f.board, f.job_links) for f in found] == [("greenhouse", "acme", 1)]


def test_a_page_without_a_board_or_job_cards_is_proposed_its_sitemaps_and_says_why():
    page = b"<html><head><title>Jobs at Acme</title></head><body><a href='/about'>About</a></body></html>"
    proposal = propose_source(page, "https://acme.example/careers")
    assert proposal.strategy == "sitemap" and proposal.source["company"] == "Acme"
    assert proposal.source["strategies"] == [{"type": "sitemap"}]  # robots.txt's sitemaps: the default
    assert "robots.txt" in proposal.reasons[-1]


RSS = """<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>Jobs</title>%s</channel></rss>"""


def _rss(links: list[str]) -> bytes:
    return (RSS % "".join(f"<item><title>Role {i}</title><link>{link}</link><description>Build.</description></item>"
                          for i, link in enumerate(links))).encode()


def test_a_feed_or_a_sitemap_url_is_proposed_as_what_it_is():
    feed = propose_source(_rss(["https://acme.example/jobs/a/", "https://acme.example/jobs/b/"]),
                          "https://acme.example/jobs/index.xml")
    assert feed.strategy == "feed" and feed.source["strategies"] == [
        {"type": "feed", "feed_urls": ["https://acme.example/jobs/index.xml"], "follow_links": True}]
    # Another registrable domain (the feed spider's rule for following; ".example" alone is no public suffix).
    elsewhere = propose_source(_rss(["https://board.example.org/job/1", "https://board.example.org/job/2"]),
                               "https://acme.example.com/feed.rss")
    assert elsewhere.source["strategies"][0].get("follow_links", False) is False  # entries on another site
    atom = (b'<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom">'
            b'<entry><link href="/jobs/a"/></entry></feed>')
    assert propose_source(atom, "https://acme.example/jobs.atom").strategy == "feed"
    sitemap = (b'<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
               b'<url><loc>x</loc></url></urlset>')
    proposal = propose_source(sitemap, "https://acme.example/sitemap-jobs.xml")
    assert proposal.source["strategies"] == [
        {"type": "sitemap", "sitemap_urls": ["https://acme.example/sitemap-jobs.xml"]}]


def test_a_page_without_job_cards_that_announces_a_job_feed_is_proposed_the_feed_not_the_blog():
    page = (b"<html><head><title>Careers</title>"
            b"<link rel='alternate' type='application/rss+xml' title='Blog' href='/blog/index.xml'>"
            b"<link rel='alternate' type='application/rss+xml' title='Open positions' href='/feeds/open.xml'>"
            b"</head><body><p>Join us.</p></body></html>")
    proposal = propose_source(page, "https://acme.example/careers/")
    assert proposal.strategy == "feed"
    assert proposal.source["strategies"][0]["feed_urls"] == ["https://acme.example/feeds/open.xml"]
    malformed = page.replace(b"href='/blog/index.xml'", b"title='Jobs' href='http://[::1/jobs.xml'")
    assert propose_source(malformed, "https://acme.example/careers/").source["strategies"][0]["feed_urls"] == [
        "https://acme.example/feeds/open.xml"]
    blog_only = page.replace(b"title='Open positions' href='/feeds/open.xml'", b"href='/news.xml'")
    assert propose_source(blog_only, "https://acme.example/careers/").strategy == "sitemap"


def _site_with_a_feed(path: str, headers: dict) -> Reply:
    if path == "/robots.txt":
        return Reply(body=b"User-agent: *\nAllow: /\n", headers={"Content-Type": "text/plain"})
    if path == "/jobs/index.xml":
        origin = f"http://{headers.get('Host') or headers.get('host')}"  # the feed's entries link to its own site
        return Reply(body=_rss([f"{origin}/jobs/role-{i}/" for i in range(2)]),
                     headers={"Content-Type": "application/xml"})
    if path.startswith("/jobs/role-"):
        number = path.strip("/").rsplit("-", 1)[1]
        return Reply(body=(f"<html><head><title>Engineer {number}</title></head><body><main><h1>Engineer {number}</h1>"
                           f"<p>Build robots in Ghent. Full time.</p></main></body></html>").encode())
    return Reply(status=404, body=b"not found")


def test_sources_try_on_a_feed_points_to_discover_whose_feed_source_crawls_the_jobs(pool):
    with ScriptedServer(_site_with_a_feed) as server:
        url = f"{server.url}/jobs/index.xml"
        allow = ("-s", "FETCH_ALLOWED_PRIVATE_HOSTS=127.0.0.1", "-s", "POLITENESS_MIN_INTERVAL=0")
        tried = scrapy_command("sources", "try", url, *allow)
        assert "sources discover URL" in tried.stdout, tried.stdout + tried.stderr
        done = scrapy_command("sources", "discover", url, "--id", "feedy", *allow)
        assert done.returncode == 0 and "# feed strategy proposed" in done.stdout, done.stdout + done.stderr
        [source] = yaml.safe_load(done.stdout)["sources"]
        import_source(pool, {**source, "status": "active"}, server.url)
        crawl("feed", "feedy")
    with pool.connection() as conn:
        titles = sorted(r["title"] for r in conn.execute("SELECT title FROM jobs WHERE source_id = 'feedy'"))
    assert titles == ["Engineer 0", "Engineer 1"] and last_run(pool)["outcome"] == "finished"


def test_discover_fetches_once_and_proposes_an_href_source_whose_first_crawl_finds_the_jobs(pool, fixture_server):
    url = f"{fixture_server.url}/demo/index.html"
    done = scrapy_command("sources", "discover", url, "--id", "northwind", "-s", "FETCH_ALLOWED_PRIVATE_HOSTS=127.0.0.1",
                          "-s", "POLITENESS_MIN_INTERVAL=0")
    assert done.returncode == 0, done.stderr
    assert "# href strategy proposed" in done.stdout and "li.job-card" in done.stdout
    [source] = yaml.safe_load(done.stdout)["sources"]
    assert source["id"] == "northwind" and source["company"] == "Northwind Robotics"
    import_source(pool, {**source, "status": "active"}, fixture_server.url)
    crawl("href", "northwind")
    with pool.connection() as conn:
        titles = sorted(r["title"] for r in conn.execute("SELECT title FROM jobs WHERE source_id = 'northwind'"))
    assert len(titles) == 5 and "Data Analyst" in titles and last_run(pool)["outcome"] == "finished"
    refused = scrapy_command("sources", "discover", url)  # loopback is refused unless a setting allows it
    assert refused.returncode == 2 and "loopback" in refused.stderr and "Traceback" not in refused.stderr


def _site_on_greenhouse(path: str, headers: dict) -> Reply:
    """A career site whose job pages send applicants to one Greenhouse board."""
    if path == "/robots.txt":
        return Reply(body=b"User-agent: *\nAllow: /\n", headers={"Content-Type": "text/plain"})
    if path == "/careers/":
        cards = "".join(f'<li class="job"><a href="/careers/role-{i}">Role {i}</a></li>' for i in range(3))
        return Reply(body=f"<html><body><ul>{cards}</ul></body></html>".encode())
    if path.startswith("/careers/role-"):
        number = path.rsplit("-", 1)[1]
        posting = json.dumps({"@context": "https://schema.org", "@type": "JobPosting", "title": f"Role {number}",
                              "hiringOrganization": {"@type": "Organization", "name": "Acme"}})
        return Reply(body=(f'<html><head><script type="application/ld+json">{posting}</script></head><body>'
                           f"<h1>Role {number}</h1><p>Build things.</p><a href='https://boards.greenhouse.io/acme/jobs/"
                           f"40{number}'>Apply</a></body></html>").encode())
    return Reply(status=404, body=b"not found")


def test_an_html_crawl_whose_jobs_are_on_one_ats_board_records_the_hint(pool):
    with ScriptedServer(_site_on_greenhouse) as server:
        import_source(pool, {"id": "acme-html", "company": "Acme", "status": "active",
                             "canonical_url": f"{server.url}/careers/",
                             "strategies": [{"type": "href", "listing_urls": [f"{server.url}/careers/"],
                                             "card_selector": "li.job", "job_url_patterns": ["/careers/role-"]}]},
                      server.url)
        crawl("href", "acme-html")
    hint = overview(pool, "acme-html")["ats_hint"]
    assert hint["provider"] == "greenhouse" and hint["board"] == "acme" and hint["links"] == 3
    shown = scrapy_command("sources", "show", "acme-html")
    assert "ATS hint: the jobs are on the greenhouse board 'acme'" in shown.stdout, shown.stdout + shown.stderr
