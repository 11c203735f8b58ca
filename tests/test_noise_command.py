"""`scrapy learn-noise` as a user runs it: from saved files, and from a configuration's stored versions."""

from __future__ import annotations

import hashlib

from helpers import scrapy_command
from noise_helpers import ACME, ACME_URLS, acme_page
from psycopg.types.json import Jsonb

from gigflow.documents import prepare_html
from gigflow.noise import NoiseFilter
from gigflow.sources import SourceConfig
from gigflow.sources.repository import import_sources
from gigflow.store import versions

HREF = {"type": "href", "listing_urls": ["https://acme-robotics.example/jobs/"], "card_selector": "li.job",
        "job_url_patterns": ["/jobs/[a-z-]+$"]}


def page_args(*numbers):
    args = []
    for n in numbers:
        args += ["--page", str(ACME / f"{n}.html"), ACME_URLS[f"{n}.html"]]
    return args


def test_learn_from_files_writes_a_filter_that_preparation_applies(tmp_path):
    out = tmp_path / "filter.json"
    result = scrapy_command("learn-noise", *page_args(1, 2, 3, 4), "--out", str(out), "--classifier", "rules")
    assert result.returncode == 0, result.stderr
    for heading in ("samples used: 4", "candidate regions:", "sent for review:", "model calls: 0",
                    "removal rules learned: 8", "job-fact signals kept on the samples: before"):
        assert heading in result.stdout
    assert "remove footer > ul  [rules] rules: no job-fact signal" in result.stdout
    assert "keep   body > footer > p  [rules] rules: job-fact signal: employer 'B.V.'" in result.stdout
    assert "         text: © 2026 Acme Robotics B.V. All rights reserved." in result.stdout
    noise_filter = NoiseFilter.model_validate_json(out.read_text())
    page = acme_page(5)
    markdown = prepare_html(page.body, page.url, noise_filter=noise_filter).markdown
    assert "Imprint" not in markdown and "Acme Robotics B.V." in markdown and "Field Engineer" in markdown

    again = scrapy_command("learn-noise", *page_args(1, 2, 3, 4), "--current", str(out), "--out", str(out),
                           "--classifier", "rules")
    assert again.returncode == 0 and "rules reused: 8" in again.stdout


def test_bad_arguments_get_clear_errors(tmp_path):
    too_few = scrapy_command("learn-noise", *page_args(1, 2), "--out", str(tmp_path / "f.json"),
                             "--classifier", "rules")
    assert too_few.returncode == 1 and "3 to 6 distinct sample pages; got 2" in too_few.stderr
    missing = scrapy_command("learn-noise", "--page", str(tmp_path / "nope.html"), "https://a.example/",
                             "--out", "x.json")
    assert missing.returncode == 1 and "nope.html" in missing.stderr
    no_model = scrapy_command("learn-noise", *page_args(1, 2, 3), "--out", str(tmp_path / "f.json"),
                              "--classifier", "openai", env={"GIGFLOW_NOISE_MODEL": ""})
    assert no_model.returncode == 1 and "no model configured" in no_model.stderr
    assert not (tmp_path / "f.json").exists()


def test_learn_from_a_configuration_saves_into_its_config(pool):
    config = SourceConfig.model_validate({"id": "acme", "company": "Acme Robotics",
                                          "canonical_url": "https://acme-robotics.example/jobs/", "strategies": [HREF],
                                          "status": "active"})  # samples come from active sources only
    import_sources(pool, [config])
    with pool.connection() as conn:
        configuration_id = conn.execute("SELECT configuration_id FROM sources WHERE id = 'acme'").fetchone()[
            "configuration_id"]
        for n in (1, 2, 3, 4, 5):
            body = (ACME / f"{n}.html").read_bytes()
            versions.store_fetch(conn, {
                "source_id": "acme", "url": ACME_URLS[f"{n}.html"], "http_status": 200,
                "content_type": "text/html; charset=utf-8", "etag": None, "last_modified": None,
                "sha256": hashlib.sha256(body).hexdigest(), "size": len(body), "body": body, "markdown": None,
                "preparation": Jsonb({}), "jobs_digest": versions.jobs_digest([])})

    dry = scrapy_command("learn-noise", "--configuration", str(configuration_id), "--classifier", "rules", "--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert "samples used: 5" in dry.stdout and "dry run: nothing saved" in dry.stdout
    assert _stored_filter(pool, configuration_id) is None

    first = scrapy_command("learn-noise", "--configuration", str(configuration_id), "--classifier", "rules")
    assert first.returncode == 0, first.stderr
    stored = _stored_filter(pool, configuration_id)
    assert stored.config_hash == config.config_hash() and len(stored.removal_rules()) == 8
    assert {s.source_version_id for s in stored.samples} == {1, 2, 3, 4, 5}

    shown = scrapy_command("noise", "show", str(configuration_id), "--text")
    assert shown.returncode == 0, shown.stderr
    assert f"configuration {configuration_id}: 8 region(s) removed by the filter" in shown.stdout
    assert "- footer > ul  [rules] rules: no job-fact signal" in shown.stdout and "  text: PrivacyImprint" in shown.stdout
    assert "  text: We use cookies to improve this site." in shown.stdout
    assert "B.V." not in shown.stdout  # the legal name is kept, so it is not listed as removed

    second = scrapy_command("learn-noise", "--configuration", str(configuration_id), "--classifier", "rules")
    assert "rules reused: 8" in second.stdout
    manual = scrapy_command("learn-noise", "--configuration", str(configuration_id), "--classifier", "rules",
                            "--manual")
    assert "rules reused: 0" in manual.stdout and "removal rules learned: 8" in manual.stdout

    unknown = scrapy_command("learn-noise", "--configuration", "999", "--classifier", "rules")
    assert unknown.returncode == 1 and "unknown configuration 999" in unknown.stderr


def _stored_filter(pool, configuration_id):
    with pool.connection() as conn:
        config = conn.execute("SELECT config FROM configurations WHERE id = %s", (configuration_id,)).fetchone()["config"]
    return NoiseFilter.model_validate(config["noiseFilter"]) if "noiseFilter" in config else None


def test_learn_from_files_with_the_model_uses_settings_and_environment(tmp_path):
    from noise_helpers import noise_policy
    from openai_stub_server import OpenAIStub, decide

    out = tmp_path / "filter.json"
    with OpenAIStub(default=decide(noise_policy)) as stub:
        result = scrapy_command("learn-noise", *page_args(1, 2, 3), "--out", str(out), "-s", "NOISE_BATCH_SIZE=4",
                                env={"OPENAI_BASE_URL": stub.base_url, "OPENAI_API_KEY": "test-key",
                                 "GIGFLOW_NOISE_MODEL": "stub-model"})
        assert result.returncode == 0, result.stderr
        sent = sum(len(batch) for batch in stub.sent_regions())
        assert all(len(batch) <= 4 for batch in stub.sent_regions())
        assert f"model calls: {len(stub.requests)}; tokens: {100 * len(stub.requests)} prompt" in result.stdout
        assert f"sent for review: {sent} distinct" in result.stdout
    noise_filter = NoiseFilter.model_validate_json(out.read_text())
    assert {r.classifier for r in noise_filter.rules} == {"openai:stub-model"}
    assert "body > footer" in {r.selector for r in noise_filter.removal_rules()}


def test_preview_learns_for_a_source_in_any_status_shows_removed_text_and_saves_nothing(pool):
    config = SourceConfig.model_validate({"id": "acme", "company": "Acme Robotics",
                                          "canonical_url": "https://acme-robotics.example/jobs/", "strategies": [HREF],
                                          "status": "trial"})  # a review would not sample a trial source
    import_sources(pool, [config])

    def store(n, content_type="text/html; charset=utf-8"):
        body = (ACME / f"{n}.html").read_bytes()
        with pool.connection() as conn:
            versions.store_fetch(conn, {
                "source_id": "acme", "url": ACME_URLS[f"{n}.html"], "http_status": 200, "content_type": content_type,
                "etag": None, "last_modified": None, "sha256": hashlib.sha256(body).hexdigest(), "size": len(body),
                "body": body, "markdown": None, "preparation": Jsonb({}), "jobs_digest": versions.jobs_digest([])})

    store(1), store(2), store(3, content_type="application/pdf")
    too_few = scrapy_command("learn-noise", "--preview", "acme", "--classifier", "rules")
    assert too_few.returncode == 1
    assert "source 'acme' (status trial) has 2 usable version(s) among 3 stored URL(s)" in too_few.stdout
    assert "a usable sample is the latest stored version of a URL, HTML, with bytes no other sample has" in too_few.stdout
    assert "latest version is application/pdf, not HTML" in too_few.stdout

    store(4), store(5)
    shown = scrapy_command("learn-noise", "--preview", "acme", "--classifier", "rules")
    assert shown.returncode == 0, shown.stderr
    assert "preview of source 'acme' (status trial" in shown.stdout and "nothing is saved" in shown.stdout
    removed = shown.stdout.split("would remove")[1].split("kept for job facts")[0]
    kept = shown.stdout.split("kept for job facts")[1]
    assert "We use cookies to improve this site." in removed and "PrivacyImprint" in removed
    assert "https://acme-robotics.example/jobs/" in removed  # the page each text was removed from
    assert "© 2026 Acme Robotics B.V." in kept and "B.V." not in removed
    assert "job-fact signals on the samples:" in shown.stdout
    with pool.connection() as conn:
        configuration_id = conn.execute("SELECT configuration_id FROM sources WHERE id = 'acme'").fetchone()[
            "configuration_id"]
    assert _stored_filter(pool, configuration_id) is None

    unknown = scrapy_command("learn-noise", "--preview", "nope")
    assert unknown.returncode == 1 and "unknown source 'nope'" in unknown.stderr
