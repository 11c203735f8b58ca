"""A page that says its vacancy is closed ("This position has been filled", "Ce poste n'accepte plus de
candidatures"): extraction states the notice on the job with its evidence, JSON-LD pages included (the freshness
sweep then expires the job: tests/test_maintenance_links.py). A condition ("open until the position is filled"),
a hidden script-shown message and another job's card say nothing."""

from __future__ import annotations

from gigflow.adapters import extract

POSTING = """<html><head><title>Data Engineer - Acme</title></head><body>
<header><nav><a href="/">Acme</a> <a href="/jobs/">Jobs</a></nav></header>
<main><h1>Data Engineer</h1>{notice}
<p>Acme builds data pipelines for logistics. You will design and run our warehouse in Rotterdam.</p>
<ul><li>3 years of experience with SQL</li><li>Python</li></ul>{extra}</main>
<footer><p>© 2026 Acme B.V.</p></footer></body></html>"""


def _job(notice: str = "", extra: str = "", head: str = ""):
    body = POSTING.format(notice=notice, extra=extra).replace("</head>", head + "</head>")
    [job] = extract(body.encode(), url="https://careers.acme.example/jobs/data-engineer", content_type="text/html").jobs
    return job


def test_a_closed_notice_is_stated_on_the_job_with_its_evidence():
    job = _job('<div class="alert"><strong>Note:</strong> This position has been filled. See our open roles.</div>')
    assert job.closed_notice == "Note: This position has been filled. See our open roles."
    assert job.evidence["closed_notice"].method == "text-pattern"
    assert _job("<p>⚠️ Ce poste n’accepte plus de candidatures.</p>").closed_notice


def test_json_ld_pages_get_the_visible_notice_too():
    jsonld = ('<script type="application/ld+json">{"@context": "https://schema.org", "@type": "JobPosting", '
              '"title": "Data Engineer", "hiringOrganization": {"name": "Acme"}, "datePosted": "2026-11-01"}</script>')
    job = _job("<p>Applications are now closed.</p>", head=jsonld)
    assert job.title == "Data Engineer" and job.closed_notice == "Applications are now closed."


def test_conditions_hidden_messages_and_other_jobs_cards_say_nothing():
    assert _job("<p>Applications are reviewed until the position is filled.</p>").closed_notice is None
    assert _job('<div style="display:none">This job is no longer available.</div>').closed_notice is None
    cards = "".join(f'<li class="job-card"><a href="/jobs/{i}/">Analyst {i}</a> <span>Position filled</span></li>'
                    for i in range(3))
    assert _job(extra=f"<h2>More jobs</h2><ul>{cards}</ul>").closed_notice is None
    assert _job('<p><a href="/jobs/old/">The role is closed: see the archive</a></p>').closed_notice is None


BADGED = """<html><head><title>{title} - Digital Team</title></head><body>
<header><nav><a href="/">Digital Team</a> <a href="/jobs/">Jobs</a></nav></header>
<article><h2>{title} <span>{badge}</span></h2><h3 id="duties-and-responsibilities">Duties and responsibilities</h3>
<p>The Digital Team is looking for an experienced {title} to run the platform of the public services.</p>
<h3 id="key-skills">Key skills</h3><ul><li>Five years of experience with cloud platforms</li></ul>
<h3 id="education">Education</h3><p>A degree in computer science or similar.</p></article>
<footer><p>Digital Team, 2026</p></footer></body></html>"""


def test_a_status_badge_on_the_title_is_the_jobs_state_not_its_title():
    body = BADGED.format(title="Cloud Engineer", badge="hired").encode()
    [job] = extract(body, url="https://digital.example/jobs/cloud.htm", content_type="text/html").jobs
    assert job.title == "Cloud Engineer" and job.closed_notice == "hired"
    assert "badge 'hired' on the title" in job.evidence["closed_notice"].snippet_or_path


def test_guard_a_title_without_a_status_badge_stays_whole_and_open():
    body = BADGED.format(title="Cloud Engineer", badge="new").encode()
    [job] = extract(body, url="https://digital.example/jobs/cloud.htm", content_type="text/html").jobs
    assert job.title.startswith("Cloud Engineer") and job.closed_notice is None


def test_a_section_heading_after_the_title_is_no_employer():
    body = BADGED.format(title="Cloud Engineer", badge="new").encode()
    [job] = extract(body, url="https://digital.example/jobs/cloud.htm", content_type="text/html").jobs
    assert job.employer != "Duties and responsibilities"


def test_an_ats_payload_that_says_the_posting_is_over_states_it():
    import json

    offer = {"offer": {"id": 7, "title": "Data Engineer", "status": "archived", "company_name": "Acme",
                       "careers_url": "https://acme.recruitee.com/o/data-engineer"}}
    [job] = extract(json.dumps(offer).encode(), url="https://acme.recruitee.com/api/offers/data-engineer",
                    content_type="application/json").jobs
    assert job.closed_notice == "status: archived" and job.evidence["closed_notice"].snippet_or_path == "$.offer.status"
    posting = {"id": "744000", "name": "Data Engineer", "active": False, "company": {"name": "Acme"},
               "postingUrl": "https://jobs.smartrecruiters.com/Acme/744000-data-engineer"}
    [job] = extract(json.dumps(posting).encode(), url="https://api.smartrecruiters.com/v1/companies/acme/postings/744000",
                    content_type="application/json").jobs
    assert job.closed_notice == "active: false"


def test_guard_an_open_or_unknown_ats_state_says_nothing():
    import json

    for status in ("published", "draft", None):
        offer = {"offer": {"id": 7, "title": "Data Engineer", "status": status, "company_name": "Acme",
                           "careers_url": "https://acme.recruitee.com/o/data-engineer"}}
        [job] = extract(json.dumps(offer).encode(), url="https://acme.recruitee.com/api/offers/data-engineer",
                        content_type="application/json").jobs
        assert job.closed_notice is None
