"""Job records on unseen sites, one test per class of error a new user met (issue #24): a form's heading is no
title, a board's copyright line is not the hiring school, label rows count inside nav-classed blocks, apply links
honour <base href>, an off-site ATS apply button is the apply URL. Pure extraction through the whole chain."""

from __future__ import annotations

from gigflow.adapters import extract

HEADER = ('<header class="site-header"><a href="/" class="brand">Muster</a>'
          '<nav><a href="/jobs/">Stellenangebote</a> <a href="/jobs/" class="btn">Jetzt bewerben</a></nav></header>')


def job_of(html: str, url: str = "https://careers.example/jobs/welder-bremen/", **kwargs):
    result = extract(html.encode(), url=url, content_type="text/html", **kwargs)
    assert result.jobs, result.warnings
    return result.jobs[0]


def test_a_form_heading_beside_the_real_h1_is_not_the_title():
    page = (f'<html><head><title>Bewerbung Schweißer (m/w/d) Bremen – Muster Metallbau</title></head><body>{HEADER}'
            '<section><div class="section-header"><p>Bewerberportal</p>'
            '<h1>Bewerbung als Schweißer (m/w/d) (Bremen)</h1><p>Für deine Bewerbung brauchen wir ein paar Angaben.</p>'
            '</div><div class="form-card"><h2 class="form-title">Bewerbungsformular</h2>'
            '<form action="/send" method="post"><h3>1. Allgemeine Angaben</h3><input name="vorname">'
            '<input name="nachname"><input name="email" type="email"><input name="cv" type="file">'
            '<button type="submit">Absenden</button></form></div></section>'
            '<div class="modal-overlay" style="display: none"><h2>Bewerbung eingegangen!</h2></div>'
            '<footer><p>Copyright &copy; 2026 – Muster Metallbau GmbH</p></footer></body></html>')
    job = job_of(page)
    assert "Schweißer (m/w/d)" in job.title and "formular" not in job.title.lower()
    assert job.location == "Bremen" and not job.title.endswith("(Bremen)")
    assert job.employer == "Muster Metallbau GmbH"  # the copyright line without its "©" and dash
    assert job.apply_url == "https://careers.example/jobs/welder-bremen/"  # the form is on the page


def test_the_hiring_school_beats_the_boards_copyright_and_site_name():
    page = ('<html><head><title>Teaching Assistant | SchoolJobsBoard</title>'
            '<meta property="og:site_name" content="SchoolJobsBoard"></head><body>'
            '<header><img class="logo" src="/l.png" alt="SchoolJobsBoard logo"></header><main>'
            '<h1>Teaching Assistant</h1><p>Oakfield Primary Academy, Leeds</p>'
            '<div class="details"><p>Contract type: Permanent, term time</p><p>Hours: Part-time</p></div>'
            '<p>We are looking for a caring teaching assistant to support pupils in Year 2 and help them thrive '
            'in reading, writing and maths across the school day.</p></main>'
            '<footer><p>© 2024 SchoolJobsBoard Ltd. All rights reserved.</p></footer></body></html>')
    job = job_of(page, url="https://schooljobsboard.example/jobs/123", company="SchoolJobsBoard")
    assert job.employer == "Oakfield Primary Academy" and job.location == "Leeds"
    assert "part_time" in job.employment_types and "permanent" in job.employment_types


def test_label_rows_inside_a_nav_classed_block_give_location_salary_and_type():
    page = ('<html><head><title>Warehouse Associate - Acme Logistics</title></head><body><main>'
            '<h1>Warehouse Associate</h1><div class="job-nav-details">'
            '<div class="row"><span>Location:</span><span>Remote (Europe)</span></div>'
            '<div class="row"><span>Base Pay:</span><span>€18 - €21 per hour</span></div>'
            '<div class="row"><span>Employee Type:</span><span>Full-time</span></div></div>'
            '<p>Pick, pack and ship orders for our customers across Europe; keep the warehouse tidy and safe and '
            'help the team meet its daily targets.</p></main></body></html>')
    job = job_of(page, url="https://acme.example/jobs/77")
    assert job.location == "Remote (Europe)" and job.remote == "remote"
    assert job.salary.min == 18 and job.salary.max == 21 and job.salary.currency == "EUR"
    assert job.salary.unit == "HOUR" and job.salary.annual_min == 18 * 2080
    assert job.salary_text == "€18 - €21 per hour"
    assert job.employment_types == ["full_time"] and job.evidence["employment_types"].snippet_or_path


def test_the_apply_link_resolves_against_base_href():
    page = ('<html><head><base href="https://jobs.acme.example/de/"><title>Welder</title></head><body>'
            '<h1>Welder</h1><p>Location: Geel</p><a class="button" href="apply/welder-77">Apply now</a>'
            '</body></html>')
    job = job_of(page, url="https://crawler-host.example/x/welder")  # fetched from a mirror or a CDN host
    assert job.apply_url == "https://jobs.acme.example/de/apply/welder-77"


def test_an_off_site_apply_button_to_an_ats_posting_is_the_apply_url():
    page = ('<html><head><title>Technical Animator — Games Board</title></head><body>'
            '<div class="top"><a href="/jobs/">Все вакансии</a></div><h1>Technical Animator</h1>'
            '<p>Jam City · San Francisco</p>'
            '<a class="apply" href="https://jobs.lever.co/jamcity/b2dc2180-109a-4486-804e-77fb5e8e51ed">'
            'Откликнуться на сайте студии</a><a href="/jobs/share">Share</a></body></html>')
    job = job_of(page, url="https://board.example/job/lv-jam-city/")
    assert job.apply_url == "https://jobs.lever.co/jamcity/b2dc2180-109a-4486-804e-77fb5e8e51ed"
    assert "lever posting" in job.evidence["apply_url"].snippet_or_path


def test_an_ats_asset_or_api_link_is_no_apply_url_and_a_posting_any_table_knows_is():
    def page(*links: str) -> str:
        return ('<html><head><title>Cook — Harbour Kitchen</title></head><body><h1>Cook</h1>'
                '<p>Harbour Kitchen · Bristol</p>' + "".join(links) + '<p>' + 'We cook fresh food every day. ' * 12
                + '</p><a href="/jobs/cook/apply">Apply now</a></body></html>')
    # A logo on the ATS's image host and the job's JSON endpoint: neither is where an applicant applies.
    job = job_of(page('<a href="https://c.smartrecruiters.com/sr-company-images/63330921f6085e2908c6113b">'
                      '<img alt="logo" src="x.png"></a>',
                      '<a href="https://boards-api.greenhouse.io/v1/boards/harbour/jobs/4040346007">JSON</a>'),
                 url="https://harbour.example/jobs/cook")
    assert job.apply_url == "https://harbour.example/jobs/cook/apply"
    # A posting on a provider only discovery knew, behind a button whose words name no application.
    job = job_of(page('<a href="https://harbour.avature.net/careers/JobDetail/Cook/17030">Zur Stelle</a>'),
                 url="https://harbour.example/jobs/cook")
    assert job.apply_url == "https://harbour.avature.net/careers/JobDetail/Cook/17030"
    assert "avature posting" in job.evidence["apply_url"].snippet_or_path


def test_an_edit_date_yields_to_the_publication_date_and_a_general_label_needs_a_known_value():
    def page(facts: str) -> str:
        return ('<html><head><title>Hitsaaja — Konepaja</title></head><body><h1>Hitsaaja</h1>'
                f'<div class="facts">{facts}</div><p>' + 'Hitsaamme teräsrakenteita joka päivä. ' * 12 + '</p></body></html>')
    job = job_of(page('<p><strong>Last edited:</strong> 2026-03-24</p><p><strong>Posted:</strong> 2026-03-01</p>'))
    assert job.date_posted == "2026-03-01"
    assert job_of(page('<p><strong>Last edited:</strong> 2026-03-24</p>')).date_posted == "2026-03-24"  # all it has
    job = job_of(page('<p><strong>Tyyppi:</strong> Blogikirjoitus</p>'))  # "type": of the page, not of the work
    assert job.employment_type is None and not job.employment_types
    job = job_of(page('<p><strong>Tyyppi:</strong> Kokoaikainen</p>'))
    assert job.employment_type == "Kokoaikainen" and job.employment_types == ["full_time"]


def test_a_remote_place_line_reads_in_the_remote_vocabulary_job_facts_flags():
    page = ('<html><head><title>Desarrollador Python — Acme</title></head><body><h1>Desarrollador Python</h1>'
            '<p>Teletrabajo</p><p>' + 'Construimos servicios de datos para hospitales. ' * 12 + '</p></body></html>')
    job = job_of(page, url="https://acme.example/empleo/desarrollador-python")
    assert job.location == "Teletrabajo" and job.remote == "remote"
