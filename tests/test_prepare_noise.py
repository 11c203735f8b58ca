"""The site's noise filter inside preparation: same-tag footers, navigation holding job facts, stale filters."""

from __future__ import annotations

from lxml.cssselect import CSSSelector

from gigflow.documents import prepare_html
from gigflow.documents.html import HtmlFormat
from gigflow.documents.types import PreparationReport
from gigflow.noise.current import get_current_noise_filter as current_noise_filter
from gigflow.noise import NoiseFilter, RemovalRule, region_signature
from helpers import FIXTURES

PAGE = (FIXTURES / "documents" / "detail_with_cards.html").read_bytes()
URL = "https://logistics.example/jobs/warehouse-lead"


def learned_rule(selector: str) -> RemovalRule:
    """A rule as the learner stores it: the signature of the region in the prepared (pre-filter) tree."""
    root, _ = HtmlFormat().clean_tree(PAGE, URL, report=PreparationReport())
    (region,) = CSSSelector(selector)(root)
    return RemovalRule(selector=selector, signature=region_signature(region), decision="remove",
                       reason="site footer on every page", classifier="rules")


def test_the_site_footer_goes_and_the_application_footer_with_the_same_tag_stays():
    noise = NoiseFilter(config_hash="h", rules=[learned_rule("footer.site-footer")])
    doc = prepare_html(PAGE, URL, noise_filter=noise)
    assert "© 2026 Example Logistics" not in doc.markdown
    assert "Call Ana on +32 9 000 00 00 before 15 January 2027" in doc.markdown
    (step,) = [s for s in doc.report.steps if s.rule == "noise-filter"]
    assert step.action == "removed" and step.selector == "footer.site-footer" and step.path.endswith("footer[2]")
    assert not doc.report.review_requested


def test_a_selector_over_both_footers_removes_only_the_one_with_the_learned_signature():
    rule = learned_rule("footer.site-footer").model_copy(update={"selector": "footer"})
    doc = prepare_html(PAGE, URL, noise_filter=NoiseFilter(config_hash="h", rules=[rule]))
    assert "© 2026 Example Logistics" not in doc.markdown and "15 January 2027" in doc.markdown
    assert not doc.report.review_requested


def test_navigation_holding_job_facts_stays_when_its_region_changed():
    rule = learned_rule("nav.breadcrumb").model_copy(update={"signature": "0" * 64})  # learned on an older page
    doc = prepare_html(PAGE, URL, noise_filter=NoiseFilter(config_hash="h", rules=[rule]))
    assert "Belgium › Ghent (hybrid)" in doc.markdown
    (step,) = [s for s in doc.report.steps if s.rule == "noise-filter"]
    assert step.action == "retained" and "changed" in step.reason


def test_a_stored_filter_applies_only_to_the_configuration_it_was_learned_for():
    stored = {"noiseFilter": NoiseFilter(config_hash="abc", rules=[learned_rule("footer.site-footer")])
              .model_dump(mode="json")}
    assert current_noise_filter(stored, "abc").rules[0].selector == "footer.site-footer"
    assert current_noise_filter(stored, "def") is None
    assert current_noise_filter({}, "abc") is None
    assert current_noise_filter({"noiseFilter": {"rules": "not a list"}}, "abc") is None
