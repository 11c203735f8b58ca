"""Round 17 of issue #23 (the development sites still below onlyMainContent, and the studied hold-outs' gaps).

CA. The job's title cut short. Signatures read the page's title in text as a placeholder, so a breadcrumb naming the
    page ("Home / Jobs / <title>") is one template region on every page. A breadcrumb that cuts long titles
    ("… / Senior Account Executive - Tex") differed on those pages and stayed whole. Text that ends with the start
    of the page's title (20 characters at least and half the title, perhaps with an ellipsis) names the page too.

CB. A board's own blocks in two template versions. On a board (JSON-LD names a different employer on each page) a
    block identical on every sample is the operator's, headings and all; a board that rebuilt its pages has two
    wordings of its own sections ("How to find work here", "About us"), neither on a quorum of the samples, and both
    stayed as "a heading inside the job content". A block that pages of different employers share verbatim is
    the board's: learned where two samples have it and judged; a block only one employer's postings share (its
    "About Acme") stays.

CC. An application form under its heading. Inside the job's region a heading stays as the job's own, so a block that
    is a heading over a form ("Apply for this job" above name, e-mail and résumé fields and a Submit button) stayed
    whole. Such a block, the same on every sample, is a control: it goes to the classifier, which keeps a form
    stating a fact (its deadline, the documents to send). A form's hidden spam-trap field ("Do not fill in this
    field:") states nothing (it read as a label with a value).

CD. A link that jumps within the page. A header's "Apply now" leading to a section of the same page (``#we-offer``)
    was written absolute by preparation (the page's own URL with a fragment) and kept as a way to apply. A link
    to the page's own URL whose fragment is empty or names an element of the page is in-page navigation: no apply
    fact. A link to another page's application stays, and so does a jump to the page's own application (the
    element it names holds a form, or its fragment names an application: "#bewerbung").

Each test fails on the code before round 17 (checked on commit d631bbe; the guards pass on both).
"""

from __future__ import annotations

import json

from gigflow.documents import prepare_html
from gigflow.noise.learn.classifier import RulesClassifier
from gigflow.noise.learn.learner import learn_noise_filter
from gigflow.noise.learn.settings import NoiseSettings
from gigflow.noise.learn.training import TrainingPage
from gigflow.noise.signature import SelfReferences
from lxml import html as lxml_html
from gigflow.noise.learn.region_review import fact_text
from noise_helpers import SITE_MENU, learn_four_jobs


def _learn(pages: list[TrainingPage], unseen: list[int]) -> list[str]:
    """Learn with the rules on every page but ``unseen`` and prepare those with the filter: their Markdown."""
    training = [page for k, page in enumerate(pages) if k not in unseen]
    result = learn_noise_filter(training, None, RulesClassifier(NoiseSettings()), config_hash="h")
    return [prepare_html(pages[k].body, pages[k].url, noise_filter=result.filter).markdown for k in unseen]


# --- CA ----------------------------------------------------------------------------------------------------------
CUT_AT = 30
SALES_JOBS = [("Field Sales Representative", "You visit bakeries in your region."),
              ("Key Account Manager", "You look after our ten largest customers."),
              ("Inside Sales Associate", "You call back every enquiry within a day."),
              ("Senior Account Executive - Texas & Louisiana", "You open new accounts along the Gulf coast.")]


def _breadcrumb_page(title: str, text: str) -> str:
    shown = title if len(title) <= CUT_AT else title[:CUT_AT]
    return (f"<html><head><title>{title} - Ledgerline</title></head><body><header>{SITE_MENU}</header>"
            "<main><nav class='breadcrumb' aria-label='Breadcrumb'><a href='/'>Home</a><span>/</span>"
            f"<a href='/jobs/'>Jobs</a><span>/</span><span>{shown}</span></nav>"
            f"<h1>{title}</h1><p>{text}</p><p>Salary: $60,000 - $80,000 a year</p></main>"
            "<footer><a href='/privacy/'>Privacy</a> <a href='/terms/'>Terms</a></footer></body></html>")


def _sales_pages() -> list[TrainingPage]:
    return [TrainingPage(url=f"https://ledgerline.example/jobs/{k}-{title.split()[0].lower()}/",
                         body=_breadcrumb_page(title, text).encode())
            for k, (title, text) in enumerate(SALES_JOBS)]


def test_ca_a_breadcrumb_cutting_the_title_short_still_goes():
    (markdown,) = _learn(_sales_pages(), unseen=[3])
    assert "Home" not in markdown and "Jobs](" not in markdown  # the breadcrumb, its cut title with it
    assert "# Senior Account Executive - Texas & Louisiana" in markdown
    assert "You open new accounts along the Gulf coast." in markdown and "$60,000 - $80,000" in markdown


def test_ca_what_reads_as_the_title_cut_short():
    refs = SelfReferences("https://ledgerline.example/jobs/9/", ("Senior Account Executive - Texas & Louisiana",))
    assert refs.text("Senior Account Executive - Tex") == "{title}"
    assert refs.text("Jobs / Senior Account Executive - Texas…") == "Jobs / {title}"
    assert refs.text("Senior Account Executive - Texas & Louisiana") == "{title}"
    # Too short a start to be more than chance, or words after it: not the title.
    assert refs.text("Senior Account") == "Senior Account"
    assert refs.text("Senior Account Executive - Tex and more") == "Senior Account Executive - Tex and more"
    assert refs.text("Our Senior Account Executive team") == "Our Senior Account Executive team"


# --- CB ----------------------------------------------------------------------------------------------------------
VERSION_A = ("<section><h3>How to find work with us</h3><p>Browse the latest openings every morning, read each "
             "posting to the end and send your application the same day through the employer's own page.</p>"
             "</section><section><h3>About this board</h3><p>We collect openings from employers across the "
             "region so that newcomers and students find them in one place, free of charge.</p></section>")
VERSION_B = ("<section><h3>Finding work in the region</h3><p>New openings arrive every day; set aside time to "
             "read them, tailor your letter to each one and keep track of where you applied.</p></section>"
             "<section><h3>Who we are</h3><p>This board gathers vacancies from many employers and links each "
             "posting to the employer's own application page, so you always apply at the source.</p></section>")
ABOUT_EMPLOYER = ("<section><h3>About Norrlake</h3><p>Norrlake has baked rye bread in the north for ninety "
                  "years and runs three bakeries with two hundred people.</p></section>")
# (employer, title, text, the board's version, the employer's own section)
BOARD_JOBS = [("Norrlake Foods AB", "Night Baker", "You bake the morning's rye loaves.", VERSION_A, ABOUT_EMPLOYER),
              ("Vestby Logistics AS", "Warehouse Worker", "You pick and pack orders.", VERSION_A, ""),
              ("Norrlake Foods AB", "Dough Mixer", "You run the mixers of line two.", VERSION_B, ABOUT_EMPLOYER),
              ("Kallio Clean Oy", "Office Cleaner", "You clean offices in the evening.", VERSION_B, ""),
              ("Suomi Care Oy", "Care Assistant", "You help residents through their day.", VERSION_A, ""),
              ("Norrlake Foods AB", "Van Driver", "You deliver bread to shops at dawn.", VERSION_B, ABOUT_EMPLOYER)]


def _board_page(employer: str, title: str, text: str, board_text: str, about: str) -> str:
    posting = {"@context": "https://schema.org", "@type": "JobPosting", "title": title,
               "hiringOrganization": {"@type": "Organization", "name": employer}}
    return (f"<html><head><title>{title} - Jobs North</title>"
            f"<script type='application/ld+json'>{json.dumps(posting)}</script></head><body>"
            f"<header>{SITE_MENU}</header><main><article><h1>{title}</h1><div>"
            f"<section><p>{text}</p><p>Employer: {employer}</p><p>Location: Oulu, Finland</p></section>"
            f"{about}<section><h3>How to apply</h3><p><a href='https://apply.example/{title.split()[0]}'>"
            f"Apply for this job</a></p></section>{board_text}</div></article></main>"
            "<footer><a href='/privacy/'>Privacy</a> <a href='/terms/'>Terms</a></footer></body></html>")


def _board_pages() -> list[TrainingPage]:
    return [TrainingPage(url=f"https://jobsnorth.example/jobs/{k}/", body=_board_page(*job).encode())
            for k, job in enumerate(BOARD_JOBS)]


def test_cb_a_boards_own_sections_in_two_versions_go():
    version_a, version_b = _learn(_board_pages(), unseen=[4, 5])
    for markdown in (version_a, version_b):
        assert "How to find work with us" not in markdown and "About this board" not in markdown
        assert "Finding work in the region" not in markdown and "Who we are" not in markdown
        assert "Apply for this job" in markdown and "Location: Oulu, Finland" in markdown
    assert "Suomi Care Oy" in version_a and "You help residents through their day." in version_a
    assert "Norrlake Foods AB" in version_b and "You deliver bread to shops at dawn." in version_b


def test_cb_guard_a_section_only_one_employers_postings_share_stays():
    _version_a, version_b = _learn(_board_pages(), unseen=[4, 5])
    assert "About Norrlake" in version_b and "ninety years" in version_b


# --- CC ----------------------------------------------------------------------------------------------------------
RESUME_FORM = ("<form action='https://forms.example/f/77' method='post' enctype='multipart/form-data'>"
               "<input type='hidden' name='job' value='{title}'>"
               "<div style='display: none'><label>Do not fill in this field: <textarea name='comment'></textarea>"
               "</label></div><div><input name='name' placeholder='Full Name' type='text'></div>"
               "<div><input name='email' placeholder='Email Address' type='email'></div>"
               "<div><label>Attach a Résumé</label><input name='cv' type='file'></div>"
               "<button type='submit'>Submit</button></form>")


def _form_site(form_note: str = ""):
    def page(_k, _slug, title, text, need):
        return (f"<html><head><title>Grennal » {title}</title></head><body><header>{SITE_MENU}</header>"
                f"<div class='bright'><h2>{title}</h2></div><div class='row'><div class='col'><p>{text}</p>"
                f"<h5>Requirements</h5><ul><li>{need}</li></ul><h5>Perks</h5><ul><li>Free lunches</li></ul></div>"
                f"<div class='col'><h5>Apply for this job</h5>"
                f"{RESUME_FORM.format(title=title).replace('<button', form_note + '<button')}</div>"
                "</div></body></html>")
    return page


def test_cc_an_application_form_under_its_heading_goes():
    _result, markdown = learn_four_jobs(_form_site(), "https://grennal.example")
    assert "Apply for this job" not in markdown and "Attach a Résumé" not in markdown
    assert "Do not fill in this field" not in markdown and "Submit" not in markdown
    assert "You buy sheet and tube from mills." in markdown and "Experience in purchasing" in markdown
    assert "Requirements" in markdown and "Free lunches" in markdown


def test_cc_guard_a_form_stating_its_deadline_and_documents_keeps_them():
    note = "<p>Send your CV and cover letter by 30 June 2026.</p>"
    _result, markdown = learn_four_jobs(_form_site(note), "https://grennal.example")
    assert "Send your CV and cover letter by 30 June 2026." in markdown


def test_cc_a_forms_hidden_spam_trap_states_nothing():
    form = lxml_html.fromstring("<div><h5>Apply</h5>" + RESUME_FORM.format(title="Welder") + "</div>")
    text = fact_text(form)
    assert "Do not fill in this field" not in text and "Attach a Résumé" in text
    shown = lxml_html.fromstring("<div><form><label>Start date: 1 May 2026</label></form>"
                                 "<div style='display: none'><p>Salary: €3,000</p></div></div>")
    assert "Start date: 1 May 2026" in fact_text(shown) and "Salary: €3,000" in fact_text(shown)  # not in a form


# --- CD ----------------------------------------------------------------------------------------------------------
def _jump_site(apply_target: str, form: str = ""):
    def page(_k, slug, title, text, need):
        target = apply_target.format(slug=slug)
        return (f"<html><head><title>{title} | Tarvo</title></head><body><header>{SITE_MENU}</header>"
                f"<section><header><h2>We are hiring</h2><h3><a href='{target}'>Apply now</a></h3></header>"
                f"</section><div id='offer'><h1>{title}</h1><p>{text}</p><h2>Your profile</h2><ul><li>{need}</li>"
                "</ul><p>Send your CV and portfolio to jobs@tarvo.example</p></div>"
                f"<section id='form-7'>{form}</section></body></html>")
    return page


def test_cd_an_apply_link_that_jumps_within_the_page_goes():
    _result, markdown = learn_four_jobs(_jump_site("#offer"), "https://tarvo.example")
    assert "Apply now" not in markdown
    assert "jobs@tarvo.example" in markdown and "You buy sheet and tube from mills." in markdown


def test_cd_guard_an_apply_link_to_another_page_stays():
    _result, markdown = learn_four_jobs(_jump_site("https://apply.tarvo.example/{slug}"), "https://tarvo.example")
    assert "[Apply now](https://apply.tarvo.example/buyer)" in markdown


def test_cd_guard_a_jump_to_the_pages_own_application_form_stays():
    form = "<form action='/send'><input name='email' placeholder='E-mail'><button>Send</button></form>"
    _result, markdown = learn_four_jobs(_jump_site("#form-7", form), "https://tarvo.example")
    assert "Apply now" in markdown
