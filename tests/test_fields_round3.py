"""Job records on unseen sites, third round (issue #24): one synthetic page per class of error behind the hold-out's
misses (an action button beside the place line, a CMS copying the page title into og:site_name on a link-heavy
board, an abbreviation read as two places, a hero slogan in a first h1). Pure extraction
through the whole chain; each fails on the round-2 code."""

from __future__ import annotations

from gigflow.adapters import extract

URL = "https://careers.example/jobs/quantitative-analyst/"
TEXT = ('<p>We build models for markets across the world and need an analyst to test them, write research notes '
        'and work with traders every day. You will own data pipelines and share results with the whole team.</p>')


def job_of(html: str, url: str = URL):
    result = extract(html.encode(), url=url, content_type="text/html")
    assert result.jobs, result.warnings
    return result.jobs[0]


def test_a_place_line_beside_an_apply_button_is_the_location():
    # The title block's other half holds the place and a button: the button is no part of the place's line.
    page = ('<html><head><title>Quantitative Analyst</title></head><body><section><div class="page-title">'
            '<div class="left"><h1>Quantitative Analyst</h1></div>'
            '<div class="right"><div class="cta"><div class="meta-wrapper"><div class="heading-four">'
            'New York, United States</div></div><a href="#" class="button w-inline-block"><div>Apply now</div></a>'
            f'</div></div></div></section><main>{TEXT}</main></body></html>')
    assert job_of(page).location == "New York, United States"


def _board(title: str, description: str) -> str:
    # A board whose every page copies its <title> into og:site_name, with a banner h1 and many links to others.
    links = "".join(f'<li class="item"><a href="/job/{i}.html">Other posting number {i}</a></li>' for i in range(8))
    return (f'<html><head><title>{title} | Jobsboard Plus</title><meta property="og:title" content="{title} | '
            f'Jobsboard Plus"><meta property="og:site_name" content="{title} | Jobsboard Plus">'
            f'<meta name="description" content="{description}"></head><body>'
            '<h1 class="h-card">Jobsboard Plus: jobs, ratings, career tips, trainings and courses in every region</h1>'
            f'<main><article><p>{description}</p>{TEXT}</article><ul>{links}</ul></main></body></html>')


def test_a_board_copying_its_title_into_og_site_name_keeps_the_posting_title():
    title = "Hotel staff for a resort chain"
    job = job_of(_board(title, f"{title}. A resort chain in partnership with a travel group is hiring staff for "
                               "the summer season."), url="https://jobsboard.example/job/2021/10/hotels.html")
    assert job.title == title
    assert job.employer != f"{title} | Jobsboard Plus"  # the copied title is no site name


def test_a_place_after_an_in_preposition_of_another_language_ends_the_title():
    title = "Оператори производство в Добрич"
    job = job_of(_board(title, f"{title}. Завод за батерии търси да назначи оператори за производството."),
                 url="https://jobsboard.example/job/2021/12/operators.html")
    assert job.location == "Добрич"


def test_an_abbreviation_with_a_slash_is_no_pair_of_places():
    # "AL/ML" is one abbreviation, not the states AL and ML: the h1 is no place repeated, a section h2 loses to it.
    page = ('<html><head><title>Pulse Jobs</title></head><body><div class="top"><nav>'
            '<a href="/">Home</a><a href="/jobs/">Jobs</a><a href="/about/">About</a></nav></div><main>'
            f'<div class="hero"><h1>Engineer II, AL/ML</h1></div><h2>Role Details</h2>{TEXT}</main></body></html>')
    assert job_of(page).title == "Engineer II, AL/ML"
    backed = ('<html><head><title>Software Engineer III, AL/ML at Bigco | Pulse Jobs</title></head><body>'
              '<header class="job-header"><div class="container"><nav class="breadcrumb"><a href="/">Home</a> / '
              '<a href="/jobs/">Jobs</a></nav><h1>Software Engineer III, AL/ML</h1><div class="job-company">Bigco'
              f'</div></div></header><main><h2>Role Details</h2>{TEXT}</main></body></html>')
    assert job_of(backed).title == "Software Engineer III, AL/ML"


def test_a_slogan_sentence_in_a_first_h1_yields_to_the_short_h1_of_the_job():
    page = ('<html><head><title>Vacantes | Lendco</title><meta property="og:title" content="Vacantes"></head><body>'
            '<section class="hero"><h1>Ayúdanos a construir la mejor plataforma de gestión de créditos y motor '
            'bancario</h1></section><main><h1>Representante de Ventas</h1><h2>Acerca de la vacante</h2>'
            f'{TEXT}</main></body></html>')
    assert job_of(page, url="https://lendco.example/vacantes/").title == "Representante de Ventas"
