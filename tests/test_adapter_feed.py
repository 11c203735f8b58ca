"""Job feeds: RSS, Atom, XML job feed, JSON Feed; XML never reaches the generic HTML parser."""

from gigflow.adapters import extract
from helpers import FIXTURES

FEEDS = FIXTURES / "adapters" / "feeds"


def test_rss_entries_become_jobs_with_feed_evidence():
    result = extract((FEEDS / "pxo-workable-rss" / "input.xml").read_bytes(), url="https://apply.workable.com/pxo/rss",
                     content_type="application/rss+xml")
    assert result.parser_key == "feed" and result.confidence == 0.82 and len(result.jobs) == 14
    job = result.jobs[1]
    assert (job.title, job.url, job.date_posted) == ("CFX Artist (Mid to Senior)",
                                                     "https://apply.workable.com/j/4B805DAFB8", "2026-03-08T06:38:13Z")
    assert job.evidence["url"].method == "feed" and job.evidence["url"].snippet_or_path == "entries[1].link"


def test_atom_resolves_relative_links_takes_the_feed_author_and_drops_untitled_entries():
    result = extract((FEEDS / "atom-jobs" / "input.xml").read_bytes(), url="https://works.example/feed.atom")
    assert [job.title for job in result.jobs] == ["Process operator (m/f/x)", "Lab analyst"]
    first = result.jobs[0]
    assert first.url == "https://works.example/vacancies/process-operator" and first.description == "Shift work in Geel."
    assert first.employer == "Example Works" and first.evidence["employer"].confidence == 0.5  # feed-level guess
    assert any("entry 2: dropped" in warning for warning in result.warnings)


def test_xml_job_feed_and_json_feed():
    xml = extract((FEEDS / "workable-xml" / "input.xml").read_bytes(), url="https://www.workable.com/boards/workable.xml")
    [job] = xml.jobs
    assert (job.external_id, job.employer, job.location) == ("2CF1C90531", "ProgressSoft", "JO")
    assert job.provenance == {"publisher": "Workable"}
    feed = extract((FEEDS / "teamtailor-tibber" / "input.json").read_bytes(), url="https://tibber.teamtailor.com/jobs.json",
                   content_type="application/json")
    assert feed.parser_key == "feed" and [j.external_id for j in feed.jobs] == ["7964779", "7775504"]
    assert feed.jobs[0].employer == "Tibber" and feed.jobs[0].location.startswith("Stockholm")


def test_xml_that_is_no_feed_gets_no_generic_html_guess():
    page = b"<?xml version='1.0'?><catalog><item><h1>Not a job</h1><title>Widget</title></item></catalog>"
    result = extract(page, url="https://x.example/catalog.xml", content_type="application/xml")
    assert result.jobs == [] and result.parser_key == "feed"
    assert any("generic HTML parser does not read XML" in warning for warning in result.warnings)


def test_hostile_feeds_are_contained():
    laughs = (b'<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">'
              b'<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;">]><source><job><title>&c;</title>'
              b"<url>https://x.example/j/1</url></job></source>")
    result = extract(laughs, url="https://x.example/feed.xml")
    assert all(len(job.title) < 1000 for job in result.jobs)
    script = (b'<rss version="2.0"><channel><item><title>&lt;script&gt;alert(1)&lt;/script&gt;Chef</title>'
              b"<link>javascript:alert(1)</link><guid>chef-1</guid></item></channel></rss>")
    [job] = extract(script, url="https://x.example/rss").jobs
    assert job.title == "Chef" and job.url is None and job.external_id.endswith("chef-1")
    broken = extract(b"<rss><channel><item><title>Half", url="https://x.example/rss")
    assert broken.parser_key == "feed"
