"""Job records on unseen sites, second round (issue #24): one synthetic page per class of error found on the wider
development set (CMS themes, page builders, boards with other jobs beside the posting, JSON-LD that names only a
country, Cyrillic places, site descriptions). Pure extraction through the whole chain; each fails on the round-1
code."""

from __future__ import annotations

import json

from gigflow.adapters import extract

URL = "https://careers.example/jobs/field-manager/"


def job_of(html: str, url: str = URL):
    result = extract(html.encode(), url=url, content_type="text/html")
    assert result.jobs, result.warnings
    return result.jobs[0]


def test_a_cms_template_named_on_body_does_not_make_the_page_chrome():
    # WordPress themes name the template on <body> ("ehf-header ehf-footer has-sidebar"); the page is not a header.
    page = ('<html><head><title>Field Manager - Otter Telecom</title></head>'
            '<body class="single single-jobs ehf-header ehf-footer has-sidebar"><main><h1>Field Manager</h1>'
            '<p>Location: Lyon</p><p>We build networks across France and need a field manager to lead our teams on '
            'site, plan the week and keep customers informed. You will work with engineers, planners and '
            'subcontractors, and report to the regional director every week.</p>'
            '<a class="button" href="/careers/send-application/">Apply now</a></main></body></html>')
    job = job_of(page)
    assert job.location == "Lyon"
    assert job.apply_url == "https://careers.example/careers/send-application/"
    assert "site menu" not in job.evidence["apply_url"].snippet_or_path  # the page's own button, not chrome
    assert job.description and "field manager" in job.description


def test_an_account_sign_up_form_is_no_application_form():
    page = ('<html><head><title>Field Manager - Otter Telecom</title></head><body><main><h1>Field Manager</h1>'
            '<p>We build networks across France and need a field manager to lead our teams on site.</p></main>'
            '<div class="xoo-popup"><form class="xoo-el-form-register"><input type="email" name="reg_email">'
            '<input name="reg_fname"><input name="reg_lname"><input type="password" name="reg_pass">'
            '<input type="password" name="reg_pass_again"><button type="submit">Sign up</button></form></div>'
            '</body></html>')
    assert job_of(page).apply_url is None  # not the page itself: nothing here takes an application


def test_lines_beside_a_title_a_page_builder_wraps_alone():
    # Elementor and friends wrap every widget in its own blocks: the place is in the next widget, not a sibling.
    widget = '<div class="elementor-element elementor-widget"><div class="elementor-widget-container">{}</div></div>'
    page = ('<html><head><title>Field Manager – Otter Telecom</title></head><body><main><section><div class="col">'
            + widget.format('<h1 class="elementor-heading-title">Field Manager</h1>')
            + widget.format('<h2 class="elementor-heading-title">Argentina</h2>')
            + widget.format('<a class="elementor-button" href="/apply/">Apply now</a>')
            + '</div></section><p>Otter Telecom is a multinational company with presence in fourteen countries '
              'throughout the Americas and the best work environment.</p></main></body></html>')
    assert job_of(page).location == "Argentina"


def test_a_meta_block_of_items_beside_the_title_gives_place_date_and_type():
    page = ('<html><head><title>DevOps Engineer - Careers at Zed</title></head><body><main><article>'
            '<header class="job-header"><h1>DevOps Engineer</h1><div class="job-meta">'
            '<span class="meta-item"><svg><path d="M8 16"/></svg> St. George, UT</span>'
            '<span class="meta-item"><svg><path d="M1 2"/></svg> Full-time</span>'
            '<span class="meta-item"><svg><path d="M4 0"/></svg> Posted 2026-02-19</span></div></header>'
            '<section><p>We provide scalable technology to simplify international commerce and need an engineer '
            'for our cloud infrastructure.</p></section></article></main></body></html>')
    job = job_of(page)
    assert job.location == "St. George, UT"
    assert str(job.date_posted)[:10] == "2026-02-19"
    assert "full_time" in job.employment_types


def test_facts_on_the_cards_of_other_jobs_are_theirs():
    card = ('<article class="post post-{n} jobs"><h1><a href="/jobs/{slug}/">{title}</a></h1>'
            '<div class="job-location-cls"><span>Location:</span> <span>{place}</span></div>'
            '<ul><li><span>Posted</span> <span>June {n}, 2022</span></li></ul></article>')
    cards = "".join(card.format(n=n, slug=f"job-{n}", title=title, place=place) for n, title, place in (
        (24, "Juniper Engineer", "Colombia, Peru"), (10, "QC Engineer", "Chile"), (9, "Packet Core Manager", "Brazil")))
    page = ('<html><head><title>Field Manager – Otter Telecom</title></head><body><main>'
            f'<aside class="col-left"><h2>Opportunities</h2>{cards}</aside>'
            '<div class="col-right"><h1>Field Manager</h1><h2>Argentina</h2>'
            '<p>Otter Telecom is a multinational company with presence in fourteen countries throughout the '
            'Americas.</p></div></main></body></html>')
    job = job_of(page)
    assert job.title == "Field Manager"
    assert job.location == "Argentina"
    assert job.date_posted is None  # the cards' "Posted June 24, 2022" is another job's


def test_a_json_ld_country_alone_yields_to_the_city_the_page_shows():
    posting = {"@context": "https://schema.org", "@type": "JobPosting", "title": "DevOps Engineer",
               "datePosted": "2026-02-19", "hiringOrganization": {"@type": "Organization", "name": "Zed"},
               "jobLocation": {"@type": "Place", "address": {"@type": "PostalAddress", "addressCountry": "US"}}}
    page = (f'<html><head><title>DevOps Engineer - Careers at Zed</title><script type="application/ld+json">'
            f'{json.dumps(posting)}</script></head><body><main><h1>DevOps Engineer</h1>'
            '<div class="job-meta"><span>St. George, UT</span><span>Full-time</span></div>'
            '<p>We need an engineer for our cloud infrastructure.</p></main></body></html>')
    job = job_of(page)
    assert job.location == "St. George, UT"
    assert job.raw["disagreements"]["location"]["jsonld"] == "US"


def test_a_work_mode_in_the_location_label_is_no_place():
    page = ('<html><head><title>Engineer | Pulse</title></head><body><main><h1>Forward Deployed Engineer</h1>'
            '<p>Prospance Inc · Fremont, CA, US · Posted May 13, 2026</p><div class="description">'
            '<p>Job type: Full-time</p><p>Work Location: In person</p><p>We are hiring an engineer who works with '
            'customers on site.</p></div></main></body></html>')
    job = job_of(page)
    assert job.location == "Fremont, CA, US"
    assert job.employer == "Prospance Inc"


def test_the_site_owner_from_a_document_title_naming_its_section():
    page = ('<html><head><title> GO-JEK Tech Job Description </title></head><body><main>'
            '<h1 class="h2 font-xl">Android Engineer</h1><button>APPLY NOW</button>'
            '<p>Build and improve the mobile experiences for one of the fastest growing apps in travel.</p>'
            '</main></body></html>')
    assert job_of(page).employer == "GO-JEK Tech"


def test_a_site_description_names_its_company_and_a_cyrillic_city_is_a_place():
    page = ('<html><head><title>Эргономист</title><meta name="description" content="СберАвтоТех — технологическая '
            'компания, которая создает транспорт будущего"></head><body><main><h1>Эргономист</h1>'
            '<p>Информационные технологии</p><ul class="tags"><li>Москва</li><li>Полная занятость</li><li>Офис</li>'
            '</ul><p>У нашей команды есть цель, и это революция в мире автопрома в самом ближайшем будущем.</p>'
            '</main></body></html>')
    job = job_of(page)
    assert job.location == "Москва"
    assert job.employer == "СберАвтоТех"  # not "Офис" (office), the line's last item
    assert "full_time" in job.employment_types


def test_a_line_break_inside_the_title_is_a_space():
    page = ('<html><head><title>Careers</title></head><body><main><h1>Corporate Broker<br>(Licensed Customs Broker)'
            '</h1><p>We simplify cross-border trade.</p></main></body></html>')
    assert job_of(page).title == "Corporate Broker (Licensed Customs Broker)"


def test_a_meta_line_of_items_and_separated_text():
    page = ('<html><head><title>Account Executive - Seller Board</title>'
            '<meta property="og:site_name" content="Seller Board"></head><body><main><h1>Account Executive</h1>'
            '<div class="article-meta"><strong>Nerdio</strong> · Austin, TX <span class="badge">Remote</span> '
            '<span class="badge">Mid</span></div><p>Sell cloud management to partners across the region, '
            'with a quota and a team behind you.</p></main></body></html>')
    job = job_of(page)
    assert job.employer == "Nerdio"  # the hiring firm on the line, not the board's site name
    assert job.location == "Austin, TX"


def test_a_place_in_the_breadcrumb_trail_is_the_location():
    page = ('<html><head><title>Programátor Python | Prace Board</title></head><body>'
            '<nav aria-label="breadcrumb"><ol class="breadcrumb"><li><a href="/">Úvod</a></li>'
            '<li><a href="/prace/">Nabídky práce</a></li><li><a href="/prace/brno/">Brno</a></li>'
            '<li>Programátor Python</li></ol></nav><main><h1>Programátor Python</h1>'
            '<p>Hledáme programátora do našeho týmu, který bude vyvíjet webové aplikace a služby.</p>'
            '</main></body></html>')
    assert job_of(page).location == "Brno"


def test_relative_dates_in_several_languages():
    from datetime import datetime, timezone

    from gigflow.adapters.dates import find_date

    fetched = datetime(2026, 3, 20, 12, 0, tzinfo=timezone.utc)
    for text, day in (("Publicado hace 5 días", "2026-03-15"), ("Zveřejněno před 3 dny", "2026-03-17"),
                      ("pred 3 dňami", "2026-03-17"), ("Opublikowano: 3 dni temu", "2026-03-17"),
                      ("опубликовано 2 дня назад", "2026-03-18"), ("вчера", "2026-03-19"), ("hoy", "2026-03-20")):
        assert find_date(text, fetched_at=fetched) == day, text
    assert find_date("hace 5 días") is None  # a relative date needs the fetch time
