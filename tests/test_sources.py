import json

import pytest
import yaml

from gigflow.sources import SourceConfig
from gigflow.sources.loader import SourceFileError, load_source_file, parse_sources
from gigflow.sources.repository import get_source, import_sources, list_sources
from helpers import FIXTURES, scrapy_command

HREF = {"type": "href", "listing_urls": ["https://jobs.example.com/"], "card_selector": "li.job",
        "job_url_patterns": ["/jobs/\\d+"], "exclude_patterns": ["/jobs/archive"]}


def source(**overrides):
    return {"id": "acme", "company": "Acme", "canonical_url": "https://jobs.example.com/",
            "strategies": [HREF], **overrides}


def test_hash_is_stable_across_key_order_and_changes_with_strategies():
    a = SourceConfig.model_validate(source())
    reordered = {k: HREF[k] for k in reversed(list(HREF))}
    b = SourceConfig.model_validate(json.loads(json.dumps(source(strategies=[reordered], company="Other"))))
    assert a.config_hash() == b.config_hash()  # company and key order are not part of the configuration
    c = SourceConfig.model_validate(source(strategies=[{**HREF, "exclude_patterns": []}]))
    assert c.config_hash() != a.config_hash()


@pytest.mark.parametrize("entry, field, words", [
    ({"strategies": [{**HREF, "job_url_patterns": ["/jobs/("]}]}, "strategies[0].job_url_patterns", "regular expression"),
    ({"strategies": [{"type": "carrier-pigeon"}]}, "strategies[0]", "unknown strategy 'carrier-pigeon'"),
    ({"canonical_url": None}, "canonical_url", ""),
    ({"strategies": [{"type": "href", "listing_urls": ["ftp://x/"]}]}, "strategies[0].listing_urls", "http(s)"),
])
def test_invalid_source_names_source_and_field(entry, field, words):
    data = {"sources": [source(id="good"), source(id="broken", **entry)]}
    with pytest.raises(SourceFileError) as info:
        parse_sources(data, "sources.yaml")
    message = str(info.value)
    assert "source 'broken'" in message and field in message and words in message
    assert "source 'good'" not in message


def test_bad_file_writes_nothing(pool, tmp_path):
    import_sources(pool, parse_sources([source(id="existing")]))
    path = tmp_path / "sources.yaml"
    path.write_text(yaml.safe_dump({"sources": [source(id="new-one", canonical_url="https://a.example/"),
                                                source(id="broken", strategies=[{"type": "nope"}])]}))
    result = scrapy_command("sources", "import", str(path))
    assert result.returncode != 0
    assert "source 'broken'" in result.stderr and "unknown strategy 'nope'" in result.stderr
    assert [row.id for row in list_sources(pool)] == ["existing"]


def test_import_and_list_through_the_cli(pool):
    result = scrapy_command("sources", "import", str(FIXTURES / "sources" / "demo.yaml"))
    assert result.returncode == 0, result.stderr
    record = get_source(pool, "demo")
    assert record.config.company == "Northwind Robotics"
    assert record.config_hash == load_source_file(FIXTURES / "sources" / "demo.yaml")[0].config_hash()
    listing = scrapy_command("sources", "list")
    assert "demo" in listing.stdout and "Northwind Robotics" in listing.stdout


def test_reimport_with_changed_strategies_drops_the_noise_filter(pool):
    import_sources(pool, parse_sources([source()]))
    with pool.connection() as conn:
        conn.execute("UPDATE configurations SET config = '{\"noiseFilter\": {\"rules\": []}}'")
    import_sources(pool, parse_sources([source()]))  # identical: filter kept
    assert "noiseFilter" in get_source(pool, "acme").stored_config
    import_sources(pool, parse_sources([source(strategies=[{**HREF, "card_selector": "div.card"}])]))
    assert "noiseFilter" not in get_source(pool, "acme").stored_config


def status_history(pool, source_id):
    with pool.connection() as conn:
        return [(r["from_status"], r["to_status"], r["actor"]) for r in conn.execute(
            "SELECT from_status, to_status, actor FROM source_status_events WHERE source_id = %s ORDER BY id",
            (source_id,))]


def test_reimport_keeps_status_and_history_unless_the_file_names_one(pool):
    from gigflow.sources.repository import set_status

    import_sources(pool, parse_sources([source()]))
    set_status(pool, "acme", "active", "earned it")
    import_sources(pool, parse_sources([source(strategies=[{**HREF, "card_selector": "div.card"}])]))
    assert get_source(pool, "acme").config.status == "active"  # a re-import without a status keeps it
    import_sources(pool, parse_sources([source(status="quarantined")]))  # the file says otherwise: an event
    assert get_source(pool, "acme").config.status == "quarantined"
    assert status_history(pool, "acme") == [(None, "candidate", "import"), ("candidate", "active", "gigflow"),
                                            ("active", "quarantined", "import")]
