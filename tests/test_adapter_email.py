"""Job-alert e-mail: MIME decoding, link filtering, platform mailboxes, provenance."""

from gigflow.adapters import extract
from helpers import FIXTURES

MAIL = FIXTURES / "adapters" / "email"


def test_platform_mailbox_accepts_only_labelled_https_links_on_the_board():
    result = extract((MAIL / "platform-alert" / "input.eml").read_bytes(), url="mailbox://jobs/INBOX/1",
                     content_type="message/rfc822", parser_key="email:jobboard.example")
    assert result.parser_key == "email" and result.confidence == 0.75
    assert [job.url for job in result.jobs] == [f"https://www.jobboard.example/jobs/view/{n}" for n in (1001, 1002, 1003)]
    assert [job.title for job in result.jobs] == ["Data Engineer", "Senior Data Engineer (Python)", "BI Engineer"]
    job = result.jobs[0]
    assert job.employer is None and any("employer not resolved" in w for w in result.warnings)
    assert job.provenance["platform"] == "jobboard.example" and job.provenance["mailbox"] == "jobs+jobboard@example.org"
    assert job.provenance["message_id"] == "<alert-0001@mail.jobboard.example>"
    assert job.evidence["url"].method == "mail-anchor" and "utm_source" in job.evidence["url"].snippet_or_path
    assert all("9999" not in job.url for job in result.jobs)  # the attachment is never read


def test_open_mailbox_drops_service_and_tracking_links_but_keeps_other_boards():
    result = extract((MAIL / "platform-alert" / "input.eml").read_bytes(), url="mailbox://jobs/INBOX/1.eml")
    urls = [job.url for job in result.jobs]
    assert result.confidence == 0.65 and "https://other-board.example/jobs/55" in urls
    assert not any(word in url for url in urls for word in ("unsubscribe", "privacy", "account", "help", "track"))
    assert "https://www.jobboard.example/jobs/view/1005" not in urls  # "View job" is no label


def test_plain_text_alert_pairs_a_url_with_the_line_above():
    result = extract((MAIL / "employer-alert" / "input.eml").read_bytes(), url="inbox/employer-alert.eml")
    [job] = result.jobs
    assert job.title == "Maintenance technician (day shift)"
    assert job.url == "https://careers.employer.example/vacancies/maintenance-technician"


def test_broken_and_hostile_mail_is_contained():
    assert extract(b"Subject: nothing\n\nno links at all", url="x.eml").jobs == []
    injected = (b"MIME-Version: 1.0\nContent-Type: text/html\n\n"
                b'<a href="javascript:alert(1)">Great job</a><a href="https://x.example/j/1">'
                b"<script>alert(1)</script>Cook</a>" + b"<p>x</p>" * 200_000)
    [job] = extract(injected, url="x.eml").jobs
    assert job.title == "Cook" and job.url == "https://x.example/j/1"
