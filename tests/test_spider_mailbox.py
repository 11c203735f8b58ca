"""The mailbox spider end to end: a folder of .eml files and a Maildir, read from disk into PostgreSQL."""

from helpers import crawl, eml_folder, import_source, last_run, maildir


def mailbox_source(source_id, folder):
    return {"id": source_id, "company": "Alerts", "status": "active", "canonical_url": "https://alerts.example/",
            "strategies": [{"type": "mailbox", "path": str(folder)}]}


def stored(pool):
    with pool.connection() as conn:
        versions = conn.execute("SELECT v.url, v.content_type, m.markdown FROM source_versions v LEFT JOIN markdowns m"
                                " ON m.sha256 = v.markdown_sha256 ORDER BY v.url").fetchall()
        jobs = conn.execute("SELECT title, url, gone_at FROM jobs ORDER BY url").fetchall()
        run = last_run(pool)
    return versions, jobs, run


def test_eml_folder_stores_each_message_once(pool, tmp_path):
    import_source(pool, mailbox_source("alerts", eml_folder(tmp_path / "eml")), "")
    crawl("mailbox", "alerts")
    versions, jobs, run = stored(pool)
    # Four files, three messages: the second delivery of the employer alert has the same Message-ID.
    assert [v["url"] for v in versions][:2] == ["mid:alert-0001@mail.jobboard.example", "mid:vacancy-7@employer.example"]
    assert len(versions) == 3 and versions[2]["url"].startswith("urn:sha256:")
    assert all(v["content_type"] == "message/rfc822" for v in versions)
    assert "Customs Declarant" in versions[2]["markdown"]
    urls = {j["url"] for j in jobs}
    assert "https://careers.employer.example/vacancies/maintenance-technician" in urls
    assert "https://careers.harbour-freight.example/vacancies/customs-declarant" in urls
    assert any(u.startswith("https://www.jobboard.example/jobs/view/1001") for u in urls)
    assert not any("unsubscribe" in u for u in urls)
    assert run["outcome"] == "finished" and run["stats"]["gigflow/messages_read"] == 3
    assert run["stats"]["gigflow/messages_already_stored"] == 1

    # A second run reads nothing new, stores nothing and retires no job: alerts are not listings.
    crawl("mailbox", "alerts")
    again, jobs_again, run = stored(pool)
    assert len(again) == 3 and run["stats"]["gigflow/messages_already_stored"] == 4
    assert run["stats"].get("gigflow/messages_read", 0) == 0
    assert len(jobs_again) == len(jobs) and all(j["gone_at"] is None for j in jobs_again)


def test_maildir(pool, tmp_path):
    import_source(pool, mailbox_source("maildir", maildir(tmp_path / "maildir")), "")
    crawl("mailbox", "maildir")
    versions, jobs, run = stored(pool)
    assert [v["url"] for v in versions] == ["mid:alert-0001@mail.jobboard.example", "mid:vacancy-7@employer.example"]
    assert run["outcome"] == "finished" and jobs


def test_missing_folder_is_an_incomplete_run(pool, tmp_path):
    import_source(pool, mailbox_source("nowhere", tmp_path / "absent"), "")
    crawl("mailbox", "nowhere")
    assert stored(pool)[2]["outcome"] == "incomplete:mailbox_missing"
