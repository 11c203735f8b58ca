"""Learning against a real OpenAI-compatible HTTP server on 127.0.0.1 that each test scripts."""

from __future__ import annotations

import json
import math

import pytest
from noise_helpers import acme_page, acme_pages, model_classifier, noise_policy
from openai_stub_server import OpenAIStub, decide, decisions_json, http_error, raw_content, slow

from gigflow.documents import prepare_html
from gigflow.noise import NoiseFilter, RemovalRule
from gigflow.noise.learn.learner import NoiseLearningError, learn_noise_filter


@pytest.fixture
def stub():
    with OpenAIStub(default=decide(noise_policy)) as server:
        yield server


def learn(pages, classifier, current=None, manual=False):
    return learn_noise_filter(pages, current, classifier, config_hash="acme-hash", manual=manual)


def texts_sent(stub) -> list[str]:
    return [region["text"] for batch in stub.sent_regions() for region in batch]


def test_model_separates_site_and_application_footers_and_keeps_pay_navigation(stub):
    result = learn(acme_pages(1, 2, 3, 4), model_classifier(stub))
    rules = {rule.selector: rule for rule in result.filter.rules}
    assert rules["body > footer"].decision == "remove"
    assert rules["article > footer"].decision == "keep"  # a footer inside the job: sent, and kept for its facts
    assert rules["header"].decision == "remove"
    assert rules['nav[aria-label="Pay and apply"]'].decision == "keep"
    assert all(rule.classifier == "openai:stub-model" for rule in result.filter.rules)
    # The structured-output request: strict JSON schema, the model and the prompt file's text.
    request = stub.requests[0]
    assert request["model"] == "stub-model"
    assert request["response_format"]["json_schema"]["strict"] is True
    assert "Decide for every region" in request["messages"][0]["content"]

    # Applied to a page it never saw: template gone, every job fact still there.
    unseen = acme_page(5)
    markdown = prepare_html(unseen.body, unseen.url, noise_filter=result.filter).markdown
    for gone in ("All rights reserved", "About us", "We use cookies"):
        assert gone not in markdown
    for fact in ("Field Engineer", "Delft, Netherlands", "€47,000", "31 January 2027", "jobs@acme-robotics.example",
                 "€3,000 per month", "https://acme-robotics.example/apply", "30 days of paid holiday", "a company car"):
        assert fact in markdown


def test_mixed_parents_are_kept_and_changed_links_or_benefits_are_never_sent(stub):
    result = learn(acme_pages(1, 2, 3, 4), model_classifier(stub))
    sent = texts_sent(stub)
    mixed = [r for r in result.filter.rules if r.selector == "aside:nth-of-type(2)"]
    assert mixed and mixed[0].decision == "keep"
    # Language links lead to this page in other languages: a different address on every page, the same place
    # (the /de/ and /fr/ sites) -- one template region, sent once and removed.
    assert sum(1 for text in sent if text == "Deutsch Français") == 1
    assert any(r.decision == "remove" and r.text == "Deutsch Français" for r in result.filter.rules)
    assert not any("This role also comes with" in text for text in sent)  # per-page benefit
    # The search form is judged on its words: its field's label and placeholder go with the header's text.
    (header,) = [region for batch in stub.sent_regions() for region in batch if region["text"].endswith("Search")]
    assert any(control.startswith("input") for control in header["controls"])
    # The model is told which regions are the site's footer (its office address and mailbox are not the job's).
    footers = [region for batch in stub.sent_regions() for region in batch if "All rights reserved" in region["text"]]
    assert footers and all(region.get("place") == "site footer" for region in footers)
    assert all("place" not in region for region in [header])


def test_model_calls_are_distinct_regions_over_batch_size_and_no_region_is_sent_twice(stub):
    result = learn(acme_pages(1, 2, 3, 4), model_classifier(stub, batch_size=2))
    sent_ids = [region["id"] for batch in stub.sent_regions() for region in batch]
    assert len(sent_ids) == len(set(sent_ids)) == result.report.regions_sent
    assert all(len(batch) <= 2 for batch in stub.sent_regions())
    assert len(stub.requests) == result.report.model_calls == math.ceil(result.report.regions_sent / 2)
    assert result.report.prompt_tokens == 100 * len(stub.requests)


def test_a_500_in_one_batch_retries_the_whole_review(stub):
    stub.then(decide(noise_policy), http_error(500))  # attempt 1: batch 1 fine, batch 2 fails
    result = learn(acme_pages(1, 2, 3, 4), model_classifier(stub, batch_size=5, retries=1))
    assert result.report.attempts == 2
    assert "500" in result.report.failures[0]
    batches = math.ceil(result.report.regions_sent / 5)
    assert len(stub.requests) == 2 + batches  # the whole review ran again, not just the failed batch
    assert len(result.filter.rules) == result.report.regions_sent


def test_a_timeout_in_one_batch_fails_cleanly_after_the_retries(stub):
    stub.then(decide(noise_policy), slow(3), decide(noise_policy), slow(3))
    classifier = model_classifier(stub, batch_size=5, retries=1, timeout=0.5)
    with pytest.raises(NoiseLearningError, match="failed after 2 attempts.*(timed out|Timeout)"):
        learn(acme_pages(1, 2, 3, 4), classifier)


@pytest.mark.parametrize("reply, problem", [
    (decisions_json(lambda regions: [{"id": r["id"], "decision": "remove", "reason": "x"} for r in regions[1:]]),
     "missing ids"),
    (decisions_json(lambda regions: [{"id": r["id"], "decision": "remove", "reason": "x"} for r in regions]
                    + [{"id": regions[0]["id"], "decision": "keep", "reason": "again"}]), "duplicate ids"),
    (decisions_json(lambda regions: [{"id": r["id"], "decision": "remove", "reason": "x"} for r in regions]
                    + [{"id": "r999", "decision": "keep", "reason": "invented"}]), "unknown ids"),
    (raw_content('{"decisions": [{"id": "r1", "decision": "remove"'), "malformed model response"),
    (decisions_json(lambda regions: [{"id": r["id"], "decision": "delete", "reason": "x"} for r in regions]),
     "malformed model response"),
])
def test_invalid_decisions_fail_the_batch_and_nothing_partial_is_returned(stub, reply, problem):
    stub.then(reply)
    with pytest.raises(NoiseLearningError, match=problem):
        learn(acme_pages(1, 2, 3, 4), model_classifier(stub))


def test_repeated_review_reuses_approved_rules_with_zero_model_calls(stub):
    stub.default = decide(lambda region: ("remove", "template"))
    first = learn(acme_pages(1, 2, 3, 4), model_classifier(stub))
    calls = len(stub.requests)
    assert calls >= 1 and first.filter.removal_rules()

    second = learn(acme_pages(1, 2, 3, 4), model_classifier(stub), current=first.filter)
    assert len(stub.requests) == calls  # nothing changed: no model call
    assert second.report.model_calls == 0
    assert {r.selector for r in second.filter.removal_rules()} == {r.selector for r in first.filter.removal_rules()}

    manual = learn(acme_pages(1, 2, 3, 4), model_classifier(stub), current=first.filter, manual=True)
    assert manual.report.reused == [] and manual.report.regions_sent == first.report.regions_sent


def test_a_decision_flipped_by_hand_survives_the_next_reviews(stub):
    """The review app saves a flip as classifier "manual": later reviews, automatic or manual, keep it as decided
    and never send its region to the model again."""
    stub.default = decide(lambda region: ("remove", "template"))
    first = learn(acme_pages(1, 2, 3, 4), model_classifier(stub))
    flipped = next(r for r in first.filter.rules if r.selector == "body > footer")
    rules = [r.model_copy(update={"decision": "keep", "classifier": "manual", "reason": "manual review: legal"})
             if r is flipped else r for r in first.filter.rules]
    current = first.filter.model_copy(update={"rules": rules})
    for manual in (False, True):
        stub.requests.clear()
        again = learn(acme_pages(1, 2, 3, 4), model_classifier(stub), current=current, manual=manual)
        [footer] = [r for r in again.filter.rules if r.selector == "body > footer"]
        assert (footer.decision, footer.classifier, footer.reason) == ("keep", "manual", "manual review: legal")
        assert not any("All rights reserved" in text for text in texts_sent(stub))


def test_re_review_sends_kept_and_changed_regions_again(stub):
    first = learn(acme_pages(1, 2, 3, 4), model_classifier(stub))
    stub.requests.clear()
    # Page 6 has a new copyright year: a year is a date, not a change, so the site-footer rule still holds.
    second = learn(acme_pages(1, 2, 3, 6), model_classifier(stub), current=first.filter)
    sent = texts_sent(stub)
    assert any("All roles pay from" in text for text in sent)  # kept last time, reviewed again
    assert not any("We use cookies" in text for text in sent)  # approved rule reused
    assert "body > footer" in {r.selector for r in second.report.reused}
    assert not any("All rights reserved" in text for text in sent)


def test_a_complete_review_that_keeps_everything_is_a_valid_zero_rule_filter(stub):
    stub.default = decide(lambda region: ("keep", "unsure"))
    result = learn(acme_pages(1, 2, 3), model_classifier(stub))
    assert result.filter.removal_rules() == [] and result.filter.completed_at is not None
    stored = NoiseFilter.model_validate_json(result.filter.model_dump_json())
    page = acme_page(4)
    prepared = prepare_html(page.body, page.url, noise_filter=stored)
    assert "All rights reserved" in prepared.markdown and not prepared.report.review_requested


def test_learning_needs_three_to_six_distinct_samples(stub):
    with pytest.raises(NoiseLearningError, match="3 to 6 distinct"):
        learn([acme_page(1), acme_page(2), acme_page(2)], model_classifier(stub))
    assert stub.requests == []


def test_invalid_or_changed_rules_stay_in_the_page_and_ask_for_review():
    page = acme_page(6)  # its site footer changed; here its main navigation gains a line of text
    page.body = page.body.replace(b'<li><a href="/blog">Blog</a></li>', b'<li><a href="/blog">Blog</a></li>'
                                  b'<li>Now hiring in Utrecht</li>')
    good = learn(acme_pages(1, 2, 3), _rules()).filter
    broken = good.model_copy(update={"rules": good.rules + [
        RemovalRule(selector="nav[aria-label=", signature="0" * 64, decision="remove", reason="x", classifier="rules"),
        RemovalRule(selector="p", signature="0" * 64, decision="remove", reason="x", classifier="rules")]})
    prepared = prepare_html(page.body, page.url, noise_filter=broken)
    reasons = {step.selector: step.reason for step in prepared.report.steps if step.action == "retained"}
    assert prepared.report.review_requested
    assert "invalid selector" in reasons["nav[aria-label="]
    assert "none as learned" in reasons["p"]  # many paragraphs, none with the rule's signature
    assert reasons["header"] == "region changed since learning"
    assert "About us" in prepared.markdown and "Privacy" not in prepared.markdown
    # The learner does not reuse the invalid rule either; it says why.
    relearned = learn(acme_pages(1, 2, 3), _rules(), current=broken)
    assert any("invalid selector" in s.reason for s in relearned.report.not_reused)
    json.dumps(relearned.filter.model_dump(mode="json"))


def _rules():
    from noise_helpers import rules_classifier

    return rules_classifier()


def test_learning_sees_pages_with_job_cards_removed_as_crawls_do():
    """A 'featured jobs' aside is only cards: crawls remove the cards before the filter, so learning must too,
    or the learned aside never matches again and every crawl asks for a review."""
    from gigflow.noise.learn.training import TrainingPage
    from gigflow.sources.config import HrefStrategy
    from noise_helpers import rules_classifier

    strategy = HrefStrategy(listing_urls=["https://jobs.example/"], card_selector="aside li",
                            job_url_patterns=["/jobs/"])
    aside = ('<aside><h2>Featured</h2><ul><li><a href="/jobs/a">Role A</a></li>'
             '<li><a href="/jobs/b">Role B</a></li></ul></aside>')
    pages = [TrainingPage(url=f"https://jobs.example/jobs/{n}", strategy=strategy, body=(
        f"<html><body><main><h1>Job {n}</h1><p>Salary €{n}000 a month</p></main>{aside}</body></html>").encode())
        for n in (1, 2, 3, 4)]
    learned = learn_noise_filter(pages[:3], None, rules_classifier(), config_hash="h").filter
    assert any(rule.selector == "aside" for rule in learned.removal_rules())
    prepared = prepare_html(pages[3].body, pages[3].url, strategy=strategy, noise_filter=learned)
    assert "Featured" not in prepared.markdown and "Salary €4000" in prepared.markdown
    assert not prepared.report.review_requested
