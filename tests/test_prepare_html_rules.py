"""HtmlFormat.parse rules, each on a fixture page: job cards (href and click), roots, selectors, patterns."""

from __future__ import annotations

import pytest

from gigflow.documents import prepare_html
from gigflow.sources.config import ClickStrategy, HrefStrategy, SitemapStrategy
from helpers import FIXTURES

DOCS = FIXTURES / "documents"
DETAIL = (DOCS / "detail_with_cards.html").read_bytes()
DETAIL_URL = "https://logistics.example/jobs/warehouse-lead"


def href(**overrides) -> HrefStrategy:
    config = {"listing_urls": ["https://logistics.example/jobs/"], "card_selector": ".job-card",
              "job_url_patterns": [r"/jobs/[a-z-]+$"], "exclude_patterns": [r"/jobs/benefits$"], **overrides}
    return HrefStrategy(**config)


def steps(document, action, rule="job-card"):
    return [s for s in document.report.steps if s.action == action and s.rule == rule]


def reason_for(document, path_fragment):
    return next(s.reason for s in document.report.steps if s.path and path_fragment in s.path)


def test_only_cards_whose_every_link_leads_to_another_job_are_removed():
    doc = prepare_html(DETAIL, DETAIL_URL, strategy=href())
    md = doc.markdown
    # pure link cards to other jobs go (the second one has a fragment link into another job and a separator)
    assert "Forklift Driver" not in md and "Night Picker" not in md
    assert len(steps(doc, "removed")) == 2
    assert all(s.path and s.selector == ".job-card" and s.text_length > 0 for s in steps(doc, "removed"))
    # everything else stays, each with its reason
    for kept in ("Warehouse Lead", "Planner", "Antwerp, full time", "This job", "Benefits of this job",
                 "Our benefits", "About us", "No link here", "Clerk", "Driver"):
        assert kept in md, kept
    reasons = [s.reason for s in steps(doc, "retained")]
    assert "kept for h1" in reasons
    assert "kept for text outside job links" in reasons
    assert "kept for form" in reasons and "kept for table" in reasons
    assert "no job links in the card" in reasons
    assert sum(r.startswith("current-job link") for r in reasons) == 2  # the job itself and its #benefits
    assert sum(r.startswith("link outside the job URL patterns") for r in reasons) == 2  # excluded, off-site


def test_fragment_links_keep_pointing_at_the_current_job():
    doc = prepare_html(DETAIL, DETAIL_URL, strategy=href())
    assert f"({DETAIL_URL}#benefits)" in doc.markdown
    assert f"({DETAIL_URL}#apply)" in doc.markdown


def test_without_job_url_patterns_the_card_selector_removes_nothing():
    doc = prepare_html(DETAIL, DETAIL_URL, strategy=href(job_url_patterns=[]))
    assert "Forklift Driver" in doc.markdown and not steps(doc, "removed")
    assert "no job URL patterns" in steps(doc, "retained")[0].reason


def test_an_invalid_pattern_retains_everything():
    # patterns are validated on import; a stored configuration written by an older version may still hold one
    strategy = HrefStrategy.model_construct(**{**href().model_dump(), "job_url_patterns": ["/jobs/(unclosed"]})
    doc = prepare_html(DETAIL, DETAIL_URL, strategy=strategy)
    assert "Forklift Driver" in doc.markdown and not steps(doc, "removed")
    assert steps(doc, "retained")[0].reason.startswith("invalid URL pattern")


def test_an_invalid_selector_retains_everything():
    # Refused at import since job identity; preparation still survives one (a configuration built in code).
    doc = prepare_html(DETAIL, DETAIL_URL, strategy=href().model_copy(update={"card_selector": "li.job-card[[["}))
    assert "Forklift Driver" in doc.markdown and not steps(doc, "removed")
    assert steps(doc, "retained")[0].reason.startswith("invalid selector")


@pytest.mark.parametrize("selector", ["html", "body", "main", "body > *"])
def test_a_selector_matching_the_root_or_an_ancestor_of_the_main_content_retains_it(selector):
    doc = prepare_html(DETAIL, DETAIL_URL, strategy=href(card_selector=selector))
    assert "Warehouse Lead" in doc.markdown and "Salary: €3,100" in doc.markdown
    root_steps = [s for s in steps(doc, "retained") if s.reason.startswith("root match")]
    assert root_steps, [s.reason for s in doc.report.steps]
    assert "main" not in [s.path.rsplit("/", 1)[-1] for s in steps(doc, "removed")]


def test_sitemap_strategies_have_no_card_rules():
    strategy = SitemapStrategy(sitemap_urls=["https://logistics.example/sitemap.xml"],
                               job_url_patterns=[r"/jobs/[a-z-]+$"])
    doc = prepare_html(DETAIL, DETAIL_URL, strategy=strategy)
    assert "Forklift Driver" in doc.markdown
    assert not [s for s in doc.report.steps if s.rule == "job-card"]


def test_without_a_noise_filter_semantic_regions_stay():
    doc = prepare_html(DETAIL, DETAIL_URL, strategy=href())
    for text in ("Example Logistics", "Belgium › Ghent (hybrid)", "before 15 January 2027", "© 2026 Example Logistics"):
        assert text in doc.markdown
    assert {s.rule for s in doc.report.steps} <= {"asset", "job-card"}


# -- click listings ---------------------------------------------------------------------------------------------

CLICK = ClickStrategy(listing_url="https://care.example/vacatures", item_selector=".result-item",
                      detail_selector=".job-panel")


def test_click_items_are_removed_without_links_but_the_detail_and_h1_stay():
    doc = prepare_html((DOCS / "click_listing.html").read_bytes(), "https://care.example/vacatures", strategy=CLICK)
    md = doc.markdown
    assert "Nurse, Utrecht" not in md and "Carer, Zwolle" not in md
    assert "Physiotherapist, Leiden" in md and "salary scale 8" in md and "All vacancies" in md
    reasons = [s.reason for s in steps(doc, "retained", "click-item")]
    assert reasons == ["the item contains the configured detail region", "kept for h1"]
    assert len(steps(doc, "removed", "click-item")) == 2


def test_a_clicked_item_that_is_itself_the_detail_keeps_its_content():
    capture = (DOCS / "click_capture_item_is_detail.html").read_text()
    doc = prepare_html(capture, "https://care.example/vacatures", strategy=CLICK)
    assert "Leiden · 32 hours a week · salary scale 8." in doc.markdown
    assert "[Apply](https://care.example/apply/77)" in doc.markdown
    assert not steps(doc, "removed", "click-item")
    assert steps(doc, "retained", "click-item")


def test_a_click_item_that_is_the_detail_region_inside_a_page_is_kept():
    page = ("<html><body><div class='result-item'>Other job</div><div class='result-item job-panel'>"
            "<p>Detail text</p></div></body></html>")
    doc = prepare_html(page, "https://care.example/vacatures", strategy=CLICK)
    assert "Detail text" in doc.markdown and "Other job" not in doc.markdown
    assert steps(doc, "retained", "click-item")[0].reason == "the item is the configured detail region"


@pytest.mark.parametrize("field", ["item_selector", "detail_selector"])
def test_invalid_click_selectors_retain_content(field):
    strategy = CLICK.model_copy(update={field: "div[[["})
    doc = prepare_html((DOCS / "click_listing.html").read_bytes(), "https://care.example/vacatures", strategy=strategy)
    assert "Nurse, Utrecht" in doc.markdown and not steps(doc, "removed", "click-item")
    assert "invalid" in steps(doc, "retained", "click-item")[0].reason


def test_a_click_item_selector_matching_body_retains_it():
    strategy = CLICK.model_copy(update={"item_selector": "body"})
    doc = prepare_html((DOCS / "click_listing.html").read_bytes(), "https://care.example/vacatures", strategy=strategy)
    assert "Nurse, Utrecht" in doc.markdown
    assert steps(doc, "retained", "click-item")[0].reason.startswith("root match")
