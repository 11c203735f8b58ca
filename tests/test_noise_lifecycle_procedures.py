"""The lifecycle procedures against a real PostgreSQL: ownership, latest versions, races, reset, rediscovery."""

import hashlib
import threading

import pytest
from psycopg.types.json import Jsonb

from gigflow.noise.current import get_current_noise_filter
from gigflow.noise.learn.lifecycle.procedures import (
    ReconcilePage, ResetFilter, SaveFilter, SelectSamples, configuration_state, reconcile_page, reset_filter,
    save_filter, select_samples,
)
from gigflow.noise.model import NoiseFilter, RemovalRule
from gigflow.sources.loader import parse_sources
from gigflow.sources.repository import get_source, import_sources

HREF = {"type": "href", "listing_urls": ["https://jobs.acme.example/"], "job_url_patterns": ["/jobs/"]}


def make_source(pool, source_id="acme", company="Acme", url="https://jobs.acme.example/", status="active"):
    import_sources(pool, parse_sources([{"id": source_id, "company": company, "canonical_url": url,
                                         "status": status, "strategies": [{**HREF, "listing_urls": [url]}]}]))
    return get_source(pool, source_id)


def add_version(pool, source_id, url, body: bytes, content_type="text/html; charset=utf-8"):
    sha256 = hashlib.sha256(body).hexdigest()
    with pool.connection() as conn:
        conn.execute("INSERT INTO bodies (sha256, size, body) VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
                     (sha256, len(body), body))
        return conn.execute(
            "INSERT INTO source_versions (source_id, url, http_status, content_type, sha256, size)"
            " VALUES (%s, %s, 200, %s, %s, %s) RETURNING id",
            (source_id, url, content_type, sha256, len(body))).fetchone()["id"]


def page(n, extra=""):
    return f"<html><body><main><h1>Job {n}</h1>{extra}</main><footer>© Acme</footer></body></html>".encode()


def learned_filter(record, samples):
    rule = RemovalRule(selector="body > footer", signature="x" * 64, decision="remove", reason="site footer",
                       classifier="rules")
    return NoiseFilter(config_hash=record.config_hash, rules=[rule], samples=samples.refs())


@pytest.fixture
def site(pool):
    record = make_source(pool)
    for n in range(4):
        add_version(pool, "acme", f"https://jobs.acme.example/jobs/{n}", page(n))
    add_version(pool, "acme", "https://jobs.acme.example/jobs/feed.json", b"{}", "application/json")
    return record


def test_select_samples_takes_latest_distinct_html_versions(pool, site):
    # a newer non-HTML version of jobs/0 hides its older HTML version: chosen before the page-type check
    add_version(pool, "acme", "https://jobs.acme.example/jobs/0", b"%PDF-1.4", "application/pdf")
    # same bytes on another URL count once
    add_version(pool, "acme", "https://jobs.acme.example/jobs/copy", page(1))
    selected = select_samples(pool, SelectSamples(configuration_id=site.configuration_id))
    # newest first: copy, 3, 2; jobs/1 has copy's bytes
    assert [s.url.rsplit("/", 1)[1] for s in selected.samples] == ["copy", "3", "2"]
    assert selected.usable and len({s.sha256 for s in selected.samples}) == 3
    assert any("not HTML" in reason for reason in selected.skipped)


def test_samples_of_inactive_sources_do_not_count(pool):
    record = make_source(pool, status="trial")
    for n in range(4):
        add_version(pool, "acme", f"https://jobs.acme.example/jobs/{n}", page(n))
    assert not select_samples(pool, SelectSamples(configuration_id=record.configuration_id)).usable


def test_save_then_current_filter_round_trip(pool, site):
    selected = select_samples(pool, SelectSamples(configuration_id=site.configuration_id))
    token = configuration_state(pool, site.configuration_id).token
    result = save_filter(pool, SaveFilter(configuration_id=site.configuration_id, expected_token=token,
                                          noise_filter=learned_filter(site, selected)))
    assert result.saved and result.token == token + 1
    state = configuration_state(pool, site.configuration_id)
    current = get_current_noise_filter(state.config, state.config_hash)
    assert current is not None and current.rules[0].selector == "body > footer"
    assert get_current_noise_filter(state.config, "another-hash") is None
    assert get_current_noise_filter(state.config, state.config_hash, max_bytes=10) is None
    assert get_current_noise_filter({"noiseFilter": {"rules": "nope"}}, state.config_hash) is None


def test_two_completions_racing_one_wins(pool, site):
    selected = select_samples(pool, SelectSamples(configuration_id=site.configuration_id))
    token = configuration_state(pool, site.configuration_id).token
    results, barrier = [], threading.Barrier(2)

    def complete():
        barrier.wait()
        results.append(save_filter(pool, SaveFilter(configuration_id=site.configuration_id, expected_token=token,
                                                    noise_filter=learned_filter(site, selected))))

    threads = [threading.Thread(target=complete) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(r.saved for r in results) == [False, True]
    loser = next(r for r in results if not r.saved)
    assert "token moved" in loser.conflict
    assert configuration_state(pool, site.configuration_id).token == token + 1


def test_reset_racing_a_completion_wins_when_first(pool, site):
    selected = select_samples(pool, SelectSamples(configuration_id=site.configuration_id))
    token = configuration_state(pool, site.configuration_id).token
    reset = reset_filter(pool, ResetFilter(configuration_id=site.configuration_id))
    assert reset.had_filter is False and reset.token == token + 1  # advances even without a filter
    late = save_filter(pool, SaveFilter(configuration_id=site.configuration_id, expected_token=token,
                                        noise_filter=learned_filter(site, selected)))
    assert not late.saved and "noiseFilter" not in configuration_state(pool, site.configuration_id).config


def test_reset_waits_for_a_locked_save_and_then_removes_it(pool, site):
    selected = select_samples(pool, SelectSamples(configuration_id=site.configuration_id))
    token = configuration_state(pool, site.configuration_id).token
    with pool.connection() as blocker:
        blocker.execute("SELECT 1 FROM configurations WHERE id = %s FOR UPDATE", (site.configuration_id,))
        done = []
        worker = threading.Thread(target=lambda: done.append(
            reset_filter(pool, ResetFilter(configuration_id=site.configuration_id))))
        worker.start()
        worker.join(0.5)
        assert not done  # the reset waits on the row lock
        blocker.execute("SELECT * FROM gigflow_noise_save(%s, %s, %s, %s)", (
            site.configuration_id, token, Jsonb(learned_filter(site, selected).model_dump(mode="json")),
            Jsonb([s.model_dump(mode="json") for s in selected.refs()])))
    worker.join(5)
    assert done and done[0].had_filter is True
    assert "noiseFilter" not in configuration_state(pool, site.configuration_id).config


def test_a_sample_of_another_company_is_refused(pool, site):
    other = make_source(pool, "other", company="Other", url="https://other.example/")
    foreign = add_version(pool, "other", "https://other.example/jobs/1", page(99))
    selected = select_samples(pool, SelectSamples(configuration_id=site.configuration_id))
    nf = learned_filter(site, selected)
    bad = nf.samples[0].model_copy(update={"source_id": "other", "source_version_id": foreign,
                                           "sha256": hashlib.sha256(page(99)).hexdigest()})
    nf = nf.model_copy(update={"samples": [bad, *nf.samples[1:]]})
    token = configuration_state(pool, site.configuration_id).token
    result = save_filter(pool, SaveFilter(configuration_id=site.configuration_id, expected_token=token,
                                          noise_filter=nf))
    assert not result.saved and "another configuration or company" in result.conflict
    assert other.configuration_id != site.configuration_id


def test_a_newer_version_committed_mid_review_makes_the_save_fail(pool, site):
    selected = select_samples(pool, SelectSamples(configuration_id=site.configuration_id))
    token = configuration_state(pool, site.configuration_id).token
    add_version(pool, "acme", selected.samples[0].url, page(0, "<p>new benefit: bike lease</p>"))
    result = save_filter(pool, SaveFilter(configuration_id=site.configuration_id, expected_token=token,
                                          noise_filter=learned_filter(site, selected)))
    assert not result.saved and "no longer the latest version" in result.conflict


def test_identical_rediscovery_keeps_the_filter_and_a_changed_one_drops_it(pool, site):
    selected = select_samples(pool, SelectSamples(configuration_id=site.configuration_id))
    token = configuration_state(pool, site.configuration_id).token
    assert save_filter(pool, SaveFilter(configuration_id=site.configuration_id, expected_token=token,
                                        noise_filter=learned_filter(site, selected))).saved
    make_source(pool)  # identical rediscovery
    assert "noiseFilter" in configuration_state(pool, site.configuration_id).config
    import_sources(pool, parse_sources([{"id": "acme", "company": "Acme", "canonical_url": "https://jobs.acme.example/",
                                         "status": "active", "strategies": [{**HREF, "card_selector": "li"}]}]))
    assert "noiseFilter" not in configuration_state(pool, site.configuration_id).config


def test_reconcile_pages_with_a_stable_cursor(pool):
    ids = [make_source(pool, f"s{n}", company=f"C{n}", url=f"https://c{n}.example/").configuration_id
           for n in range(5)]
    make_source(pool, "inactive", company="X", url="https://x.example/", status="candidate")
    seen, cursor = [], 0
    while cursor is not None:
        page_ = reconcile_page(pool, ReconcilePage(after_id=cursor, limit=2))
        seen += page_.configuration_ids
        cursor = page_.next_cursor
    assert seen == sorted(ids)
