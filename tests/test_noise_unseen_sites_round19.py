"""Round 19 of issue #23: what the learned filter kept where the main-content cleanup drops it (EA-ED).

Found on hold-out 10 (studied in round 19) and built here on synthetic pages:

- EA: a side list of the site's other postings, whose addresses carry an apply word of the site's URL scheme
  ("/careers/apply/<job>"), is no way to apply (`sibling_page_targets`, `gigflow/noise/learn/in_page.py`);
- EB: a skip link to the element around the whole page (``<main id="main">`` with the job's ``<h1>`` and its
  application form) is no way to apply (`in_page_targets`);
- EC: outbound links every sample makes (a theme credit, a donation page) do not hide that each page links out to
  its own employer: the samples are a board (`looks_like_a_board`, `gigflow/noise/learn/owner.py`);
- ED: a template region's mailbox, the same beside every job, is the site's where each job's own text names a
  contact mailbox of its own that changes from job to job (`restated_mailbox.py`).

Each behaviour test fails on the code before round 19 (commit b92e29a); the guards pass on both.
"""

from __future__ import annotations

from lxml import html as lxml_html

from noise_helpers import FOUR_JOBS, SITE_MENU

from gigflow.documents import prepare_html
from gigflow.noise.learn.classifier import RulesClassifier
from gigflow.noise.learn.in_page import in_page_targets, sibling_page_targets
from gigflow.noise.learn.learner import learn_noise_filter
from gigflow.noise.learn.owner import looks_like_a_board
from gigflow.noise.learn.settings import NoiseSettings
from gigflow.noise.learn.training import TrainingPage


def _learn(make, url_of, unseen: int = 3):
    pages = [TrainingPage(url=url_of(slug), body=make(k, slug, title, text, need).encode())
             for k, (slug, title, text, need) in enumerate(FOUR_JOBS)]
    training = [page for k, page in enumerate(pages) if k != unseen]
    result = learn_noise_filter(training, None, RulesClassifier(NoiseSettings()), config_hash="h")
    page = pages[unseen]
    return result, prepare_html(page.body, page.url, noise_filter=result.filter).markdown


ORIGIN = "https://werkhalle.example"
APPLY_SCHEME = lambda slug: f"{ORIGIN}/careers/apply/{slug}"  # noqa: E731 - the site's postings live under "apply"
OPENINGS = "".join(f"<li><a href='/careers/apply/{slug}'>{title}</a></li>" for slug, title, _t, _n in FOUR_JOBS)


def _posting(k, _slug, title, text, need, *, header=f"<header>{SITE_MENU}</header>", aside="", footer=""):
    return (f"<html><head><title>{title} | Werkhalle</title></head><body>{header}"
            f"<main id='main'><h1>{title}</h1><p>{text}</p><h2>Your profile</h2><ul><li>{need}</li></ul>"
            f"{aside}<form action='/send'><input name='name'><button>Send</button></form></main>"
            f"<footer><p><a href='/imprint/'>Imprint</a></p>{footer}</footer></body></html>")


# --- EA -------------------------------------------------------------------------------------------------------

def test_ea_a_list_of_the_other_postings_under_an_apply_path_goes():
    aside = f"<aside><h3>Open positions</h3><ul>{OPENINGS}</ul></aside>"
    _result, markdown = _learn(lambda *a: _posting(*a, aside=aside), APPLY_SCHEME)
    assert "Production Planner" not in markdown and "Open positions" not in markdown
    assert "Steel Buyer" in markdown and "Experience in purchasing" in markdown


SIBLINGS = (f"<div><a href='{ORIGIN}/jobs/apply'>Send us your CV</a><a href='{ORIGIN}/jobs/planner'>Production "
            f"Planner</a><a href='{ORIGIN}/jobs/welder/apply'>Go</a><a href='{ORIGIN}/jobs/planner?apply=1'>Go</a>"
            "</div>")


def test_ea_a_sibling_posting_is_found():
    assert f"{ORIGIN}/jobs/planner" in sibling_page_targets(lxml_html.fromstring(SIBLINGS), f"{ORIGIN}/jobs/welder/")


def test_ea_guard_an_apply_page_beside_or_below_the_posting_is_still_a_way_to_apply():
    found = sibling_page_targets(lxml_html.fromstring(SIBLINGS), f"{ORIGIN}/jobs/welder/")
    assert not found & {f"{ORIGIN}/jobs/apply", f"{ORIGIN}/jobs/welder/apply", f"{ORIGIN}/jobs/planner?apply=1"}


# --- EB -------------------------------------------------------------------------------------------------------

def test_eb_a_skip_link_to_main_is_no_way_to_apply():
    header = f"<header><a class='skip' href='#main'>Skip to the content</a>{SITE_MENU}</header>"
    _result, markdown = _learn(lambda *a: _posting(*a, header=header), APPLY_SCHEME)
    assert "Skip to the content" not in markdown
    assert "Steel Buyer" in markdown and "Experience in purchasing" in markdown


def test_eb_guard_a_jump_to_the_application_form_is_still_a_way_to_apply():
    url = f"{ORIGIN}/careers/apply/welder"
    root = lxml_html.fromstring(f"<html><body><header><a href='{url}#main'>Skip</a><a href='{url}#send'>Send "
                                f"documents</a></header><main id='main'><h1>Pipe Welder</h1><section id='send'>"
                                "<form><input name='cv'></form></section></main></body></html>")
    assert f"{url}#send" not in in_page_targets(root.find(".//header"), url)


# --- EC -------------------------------------------------------------------------------------------------------

EMPLOYER_SITES = ["https://ats-one.example/legalist/jobs/1", "https://jobs.ats-two.example/passfort/2",
                  "https://kraanwerk.example/vacatures/3", "https://hire.ats-three.example/brightco/apply"]


def _board_page(k, title, credits=True):
    footer = ("<footer>© 2024 Jobhub · <a href='https://gohugo.io/'>Hugo</a> · "
              "<a href='https://donate.example/jobhub'>Donate</a></footer>") if credits else "<footer>© 2024</footer>"
    return (f"<html><head><title>{title}</title></head><body><header><a href='/'>Jobhub</a></header>"
            f"<main><article><h1>{title}</h1><p>Visa sponsorship offered.</p>"
            f"<a href='{EMPLOYER_SITES[k]}'>Apply on the employer's site</a></article></main>{footer}</body></html>")


def _board_samples(credits=True):
    samples = [TrainingPage(url=f"https://jobhub.example/jobs/{k}/", body=_board_page(k, t, credits).encode())
               for k, (_s, t, _x, _n) in enumerate(FOUR_JOBS)]
    return samples, [s.prepared() for s in samples]


def test_ec_a_board_whose_pages_all_credit_the_same_theme_is_still_a_board():
    samples, roots = _board_samples()
    assert looks_like_a_board(samples, roots)


def test_ec_guard_one_employers_pages_linking_to_one_application_system_are_no_board():
    pages = [(f"<html><body><main><h1>{t}</h1><a href='https://ats-one.example/acme/jobs/{k}'>Apply</a></main>"
              "<footer><a href='https://gohugo.io/'>Hugo</a></footer></body></html>") for k, (_s, t, _x, _n)
             in enumerate(FOUR_JOBS)]
    samples = [TrainingPage(url=f"https://acme.example/jobs/{k}/", body=p.encode()) for k, p in enumerate(pages)]
    assert not looks_like_a_board(samples, [s.prepared() for s in samples])


# --- ED -------------------------------------------------------------------------------------------------------

RECRUITERS = ["a.kowal@werkhalle.example", "b.nowak@werkhalle.example", "c.lis@werkhalle.example",
              "d.mazur@werkhalle.example"]
FRONT_DESK = ("<div class='contacts'><h3>Contacts</h3><ul><li><a href='mailto:o.wolf@werkhalle.example'>"
              "o.wolf@werkhalle.example</a></li></ul></div>")


def _agency_page(contact_of):
    def page(k, slug, title, text, need):
        contact = contact_of(k)
        own = f"<p>Please send your CV to our recruiter: <a href='mailto:{contact}'>{contact}</a></p>" if contact else ""
        return (f"<html><head><title>{title} | Werkhalle</title></head><body><header>{SITE_MENU}</header>"
                f"<main><h1>{title}</h1><p>{text}</p><h2>Your profile</h2><ul><li>{need}</li></ul>{own}</main>"
                f"<footer><p><a href='/imprint/'>Imprint</a></p>{FRONT_DESK}</footer></body></html>")
    return page


def _jobs_url(slug):
    return f"{ORIGIN}/jobs/{slug}/"


def test_ed_a_footer_mailbox_beside_each_jobs_own_recruiter_goes():
    _result, markdown = _learn(_agency_page(lambda k: RECRUITERS[k]), _jobs_url)
    assert "o.wolf@werkhalle.example" not in markdown and "Contacts" not in markdown
    assert "d.mazur@werkhalle.example" in markdown  # the unseen job's own recruiter


def test_ed_guard_the_footer_mailbox_stays_where_the_jobs_name_no_mailbox():
    _result, markdown = _learn(_agency_page(lambda k: ""), _jobs_url)
    assert "o.wolf@werkhalle.example" in markdown


def test_ed_guard_the_footer_mailbox_stays_where_every_job_names_the_same_other_one():
    _result, markdown = _learn(_agency_page(lambda k: "jobs@werkhalle.example"), _jobs_url)
    assert "o.wolf@werkhalle.example" in markdown and "jobs@werkhalle.example" in markdown


def test_ec_guard_one_employers_postings_on_one_job_site_are_no_board():
    own = ["https://www.jobsite.example/viewjob?jk=1", "https://www.jobsite.example/job/planner-2",
           "https://www.jobsite.example/job/driver-3", ""]
    pages = [(f"<html><body><main><h1>{t}</h1>" + (f"<a href='{own[k]}'>Also on the job site</a>" if own[k] else "")
              + "</main><footer><a href='https://partner.example/profile/1'>Certified partner</a></footer>"
              "</body></html>") for k, (_s, t, _x, _n) in enumerate(FOUR_JOBS)]
    samples = [TrainingPage(url=f"https://acme.example/jobs/{k}/", body=p.encode()) for k, p in enumerate(pages)]
    assert not looks_like_a_board(samples, [s.prepared() for s in samples])


def test_ed_guard_the_footer_mailbox_stays_where_one_recruiter_writes_most_jobs():
    _result, markdown = _learn(_agency_page(lambda k: RECRUITERS[1] if k == 1 else RECRUITERS[0]), _jobs_url)
    assert "o.wolf@werkhalle.example" in markdown
