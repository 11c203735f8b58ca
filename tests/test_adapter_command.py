"""`scrapy extract` runs the adapter chain on saved content, as a user would."""

import json

from helpers import FIXTURES, scrapy_command

ADAPTERS = FIXTURES / "adapters"


def test_extract_prints_the_extraction_result_as_json():
    done = scrapy_command("extract", str(ADAPTERS / "ats" / "workable-kroo" / "input.json"),
                          "--url", "https://apply.workable.com/api/v1/widget/accounts/kroo?details=true")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["parser_key"] == "workable" and len(result["jobs"]) == 8
    assert "raw" not in result["jobs"][0] and result["jobs"][0]["evidence"]["title"]["method"] == "ats-json"


def test_extract_reads_eml_with_a_parser_key_and_html_with_raw():
    mail = scrapy_command("extract", str(ADAPTERS / "email" / "platform-alert" / "input.eml"),
                          "--url", "mailbox://jobs/1", "--parser", "email:jobboard.example")
    assert json.loads(mail.stdout)["confidence"] == 0.75
    page = scrapy_command("extract", str(ADAPTERS / "html" / "labelled-vacancy" / "input.html"),
                          "--url", "https://w.example/v/1", "--raw")
    assert json.loads(page.stdout)["jobs"][0]["employer"] == "Voorbeeld Logistiek NV"


def test_extract_names_a_missing_file():
    done = scrapy_command("extract", "no/such/file.html", "--url", "https://x.example/")
    assert done.returncode == 2 and "no/such/file.html: no such file" in done.stderr
