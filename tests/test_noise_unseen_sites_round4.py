"""Round 4 of issue #23 (sites never seen): a template block the first sample lacks.

G. The template analysis saw every sample from the first one, so a block on some pages only (a notice on older
   postings, a banner on two pages of five) was never learned when the first sample had none. A block identical
   on two or more samples, outside the job's text and stating no job fact, is template wherever it appears: it
   goes from a page the learner never saw, and every fact stays.
"""

from __future__ import annotations

from gigflow.documents import prepare_html
from gigflow.noise.learn.classifier import RulesClassifier
from gigflow.noise.learn.learner import learn_noise_filter
from gigflow.noise.learn.settings import NoiseSettings
from gigflow.noise.learn.training import TrainingPage

JOBS = [  # slug, title, city, stale
    ("platform-architect-101", "Platform Architect", "Denver", False),
    ("quant-developer-202", "Quant Developer", "Boston", True),
    ("risk-associate-303", "Risk Associate", "Austin", True),
    ("data-engineer-404", "Data Engineer", "Chicago", True),
]
ORIGIN = "https://jobs.example"
NOTICE = ("<div class='notice'><p>Heads up, this posting has been open for a while, so the team may already be "
          "busy. Browse our newest openings too.</p></div>")


def page(slug, title, city, stale):
    return (f"<html><head><title>{title} | Harbor Careers</title></head><body>"
            "<header><a href='/'>Harbor Careers</a><a href='/jobs/'>Jobs</a><a href='/team/'>Team</a></header>"
            + (NOTICE if stale else "")
            + f"<main><article><h1>{title}</h1><p>{city}</p><h2>The role</h2><p>You will own the "
            f"{title.lower()} work in {city}; reference {slug[-3:]}.</p></article></main>"
            "<footer><a href='/privacy/'>Privacy Policy</a><a href='/imprint/'>Imprint</a></footer></body></html>")


def test_g_a_template_block_missing_from_the_first_sample_is_learned():
    pages = [TrainingPage(url=f"{ORIGIN}/jobs/{job[0]}/", body=page(*job).encode()) for job in JOBS]
    result = learn_noise_filter(pages[:3], None, RulesClassifier(NoiseSettings()), config_hash="h")
    unseen = pages[3]
    markdown = prepare_html(unseen.body, unseen.url, noise_filter=result.filter).markdown
    assert "Heads up" not in markdown
    for fact in ("Data Engineer", "Chicago", "The role", "reference 404"):
        assert fact in markdown, fact
    assert result.report.facts_after == result.report.facts_before
