"""The whole loop as a deployment runs it: crawl, finalization requests a review, `scrapy noise worker` learns
through a local OpenAI-compatible server, the filter is saved, the stored versions are prepared again with it (no
refetch) and their jobs re-extracted, and the next crawl keeps the Markdown without the noise."""

from gigflow.sources.repository import get_source
from helpers import crawl, import_demo, scrapy_command
from openai_stub_server import OpenAIStub, decide

VERSION_MARKDOWN = ("SELECT v.url, m.markdown FROM source_versions v"
                    " LEFT JOIN markdowns m ON m.sha256 = v.markdown_sha256")


def model_policy(region: dict) -> tuple[str, str]:
    if any(word in region["text"] for word in ("€", "Apply", "Salary")):
        return "keep", "holds job facts"
    return "remove", "site template"


def test_crawl_review_learn_save_then_the_next_crawl_drops_the_learned_noise(pool, fixture_server):
    import_demo(pool, fixture_server)
    configuration_id = get_source(pool, "demo").configuration_id
    crawl("href", "demo")
    with pool.connection() as conn:
        before = {r["url"]: r["markdown"] for r in conn.execute(VERSION_MARKDOWN)}
    assert all("Dok Noord 7" in md and "About us" in md for md in before.values())

    with OpenAIStub(default=decide(model_policy)) as model:
        worker = scrapy_command("noise", "worker", "--once", env={
            "OPENAI_BASE_URL": model.base_url, "OPENAI_API_KEY": "test-key", "GIGFLOW_NOISE_MODEL": "stub-model"})
    assert worker.returncode == 0, worker.stderr[-3000:]
    assert '"event": "filter_saved"' in worker.stderr
    sent = model.sent_regions()
    assert sent and len({r["id"] for batch in sent for r in batch}) == sum(len(batch) for batch in sent)
    with pool.connection() as conn:
        saved = conn.execute("SELECT config -> 'noiseFilter' AS f FROM configurations WHERE id = %s",
                             (configuration_id,)).fetchone()["f"]
    removals = [rule for rule in saved["rules"] if rule["decision"] == "remove"]
    assert removals and all(rule["classifier"].startswith("openai") for rule in saved["rules"])

    # The saved filter reached the stored pages at once: prepared again from their bytes, jobs re-extracted.
    assert '"event": "versions_reprepared"' in worker.stderr
    with pool.connection() as conn:
        after = {r["url"]: r["markdown"] for r in conn.execute(VERSION_MARKDOWN)}
    assert len(after) == 5
    for url, markdown in after.items():
        assert "Dok Noord 7" not in markdown and "About us" not in markdown  # learned noise gone
        assert "We use cookies" not in markdown and "Accept all" not in markdown  # the cookie banner too
        assert markdown.lstrip().startswith("# ")  # the page starts with the job's title
        assert "Other jobs" not in markdown  # the aside left once its job cards are removed
        for fact in ("Salary: €", "Apply before", "gross per month", "What you bring"):  # job facts kept
            assert fact in markdown, (url, fact)
        assert before[url].splitlines()[0] != "" and len(markdown) < len(before[url])

    second = crawl("href", "demo")
    # The pages did not change (304s) and their Markdown is already the filter's: none is prepared again.
    assert '"event": "region_changed"' not in second.stderr
    with pool.connection() as conn:
        again = {r["url"]: r["markdown"] for r in conn.execute(VERSION_MARKDOWN)}
    assert again == after  # the crawl prepared them the same way: nothing left to change
    # Each job's description is the filtered, prepared page, not the raw one.
    with pool.connection() as conn:
        jobs = conn.execute("SELECT fields ->> 'description' AS d, evidence -> 'description' AS e FROM jobs").fetchall()
    assert len(jobs) == 5
    for job in jobs:
        assert job["e"]["method"] == "prepared" and saved_fingerprint(saved) in job["e"]["snippet_or_path"]
        assert "About us" not in job["d"] and "Dok Noord 7" not in job["d"] and "We use cookies" not in job["d"]
        assert job["d"].startswith("# ")
        assert "What you bring" in job["d"] and "Apply before" in job["d"]


def saved_fingerprint(saved: dict) -> str:
    from gigflow.noise import NoiseFilter

    return NoiseFilter.model_validate(saved).fingerprint()
