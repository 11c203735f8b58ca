"""The offline `rules` classifier, candidates and selectors on the Acme fixture pages."""

from __future__ import annotations

import re

from noise_helpers import acme_page, acme_pages, rules_classifier

from gigflow.documents import prepare_html
from gigflow.noise.learn.candidates import candidate_regions
from gigflow.noise.learn.classifier import ReviewRegion, job_fact_signals
from gigflow.noise.learn.learner import learn_noise_filter
from gigflow.noise.selectors import select, selector_candidates
from gigflow.noise.signature import region_signature


def region(text: str, links=()) -> ReviewRegion:
    return ReviewRegion(id="r1", selector="footer", signature="s", tag="footer", text=text, links=tuple(links), html="")


def test_rules_keep_job_fact_signals_and_say_which():
    assert job_fact_signals(region("Salary from €3,000 per month"))
    assert job_fact_signals(region("Apply before 31 January 2027"))
    assert job_fact_signals(region("Write to", [("Mail us", "mailto:jobs@acme.example")]))
    assert job_fact_signals(region("Remote or hybrid, 5611 Eindhoven"))
    assert job_fact_signals(region("30 days of paid holiday and a pension plan"))
    assert job_fact_signals(region("Requirements: 3 years of experience"))
    assert not job_fact_signals(region("© 2026 Acme Robotics. All rights reserved. Privacy Imprint"))
    assert not job_fact_signals(region("Questions?", [("info", "mailto:info@acme.example")]))  # a site mailbox


def test_rules_classifier_removes_only_template_and_records_itself():
    result = learn_noise_filter(acme_pages(1, 2, 3, 4), None, rules_classifier(), config_hash="h")
    decisions = {rule.selector: rule for rule in result.filter.rules}
    # The site footer names the employer's legal entity: that part stays, its imprint links go.
    assert decisions["body > footer"].decision == "keep" and "employer 'B.V.'" in decisions["body > footer"].reason
    assert decisions["body > footer > p"].decision == "keep"
    assert decisions["footer > ul"].decision == "remove" and decisions["footer > ul"].text == "PrivacyImprint"
    # The header with its search box is judged whole on its words (menu links, the search field): template.
    assert decisions["header"].decision == "remove"
    # A footer inside the job's own region is still a footer: reviewed, and kept for the deadline and contact.
    assert decisions["article > footer"].decision == "keep" and "date" in decisions["article > footer"].reason
    assert decisions['nav[aria-label="Pay and apply"]'].decision == "keep"
    assert decisions["aside:nth-of-type(2)"].decision == "keep"  # mixed: social blurb plus holiday and pension
    assert all(rule.classifier == "rules" and rule.reason.startswith("rules: ") for rule in result.filter.rules)
    assert "no job-fact signal" in decisions["footer > ul"].reason
    assert result.report.model_calls == 0
    assert result.report.facts_after == result.report.facts_before


def test_candidates_are_outer_regions_only_and_never_ordinary_content():
    root = acme_page(1).prepared()
    outer = candidate_regions(root)
    tags = [el.tag for el in outer]
    assert "article" not in tags and "main" not in tags
    for el in outer:  # no candidate sits inside another
        assert not any(other is not el and el in other.iterdescendants() for other in outer)
    app_footer = root.xpath("//article/footer")[0]
    assert app_footer in outer  # a footer inside ordinary content is still a region


def test_selectors_use_tags_roles_labels_and_child_steps_never_ids_or_classes():
    root = acme_page(1).prepared()
    for el in candidate_regions(root):
        for selector in selector_candidates(el):
            outside_quotes = re.sub(r'"[^"]*"', "", selector)
            assert "#" not in outside_quotes and "." not in outside_quotes and "class" not in outside_quotes
            assert el in select(root, selector)
    banner = root.xpath("//div[p[contains(., 'cookies')]]")[0]
    assert selector_candidates(banner)[-1] == "html > body > div:nth-of-type(1)"


def test_signature_ignores_ids_classes_and_style_but_not_links_or_text():
    from gigflow.documents.html import parse_html

    def sig(markup):
        return region_signature(parse_html(f"<html><body>{markup}</body></html>").find(".//footer"))

    base = sig('<footer id="a1" class="x"><a href="https://a.example/p">Privacy</a></footer>')
    assert base == sig('<footer id="b2" class="y" style="color:red"><a href="https://a.example/p">Privacy</a></footer>')
    assert base != sig('<footer><a href="https://a.example/q">Privacy</a></footer>')
    assert base != sig('<footer><a href="https://a.example/p">Privacy policy</a></footer>')
    assert base != sig('<footer><a href="https://a.example/p" aria-label="x">Privacy</a></footer>')


def test_unseen_page_with_a_changed_region_keeps_it_and_asks_for_review():
    result = learn_noise_filter(acme_pages(1, 2, 3, 4), None, rules_classifier(), config_hash="h")
    page = acme_page(6)  # its footer has a new copyright year; here its main navigation gains a line of text too
    # (a new menu link would be bounded variation and go: test_noise_unseen_sites_round5)
    body = page.body.replace(b'<li><a href="/blog">Blog</a></li>', b'<li><a href="/blog">Blog</a></li>'
                             b'<li>Now hiring in Utrecht</li>')
    prepared = prepare_html(body, page.url, noise_filter=result.filter)
    assert "© 2027 Acme Robotics" in prepared.markdown  # the legal name is kept, whatever the year
    assert "About us" in prepared.markdown and prepared.report.review_requested
    assert "Privacy" not in prepared.markdown and "QA Engineer" in prepared.markdown
    removed = [s for s in prepared.report.steps if s.action == "removed" and s.rule == "noise-filter"]
    assert len(removed) == len(result.filter.removal_rules()) - 1
    (changed,) = [s for s in prepared.report.steps if s.rule == "noise-filter" and s.action == "retained"]
    assert changed.reason == "region changed since learning"
    assert changed.text == "About usBlogNow hiring in UtrechtCareers Search"


def test_regions_over_the_size_limit_stay_and_are_not_sent():
    result = learn_noise_filter(acme_pages(1, 2, 3), None, rules_classifier(max_region_chars=120), config_hash="h")
    assert any("size limit" in s.reason for s in result.report.skipped)
    assert all(len(r.selector) > 0 for r in result.filter.rules)
    assert "body > footer" not in {r.selector for r in result.filter.rules}


def test_create_noise_filter_is_the_learner():
    from gigflow.noise import NoiseFilter
    from gigflow.noise.learn.learner import create_noise_filter

    created = create_noise_filter(acme_pages(1, 2, 3), None, classifier=rules_classifier(), config_hash="h")
    assert isinstance(created, NoiseFilter) and created.config_hash == "h" and len(created.samples) == 3
    assert {r.selector for r in created.removal_rules()} >= {"footer > ul", "header"}


def test_rules_see_employers_employment_terms_addresses_and_label_rows_in_every_corpus_language():
    def kinds(text, links=(), html="", employers=()):
        found = job_fact_signals(ReviewRegion(id="r1", selector="div", signature="s", tag="div", text=text,
                                              links=tuple(links), html=html), employers)
        return {signal.kind for signal in found}

    for legal in ("© 2026 Brightwater Logistik GmbH", "Kestrel Data UG (haftungsbeschränkt)", "Ostrava Mlyn s.r.o.",
                  "© Tidewell Foods B.V.", "Harrow & Pike Ltd.", "Copyright Quillon Labs, Inc.", "Lumo Oy",
                  "Vantage Retail AG", "北斗物流株式会社", "주식회사 한빛"):
        assert "employer" in kinds(legal), legal
    assert "employer" in kinds("Made with care by Brightwater", employers=("Brightwater",))
    for term in ("Full-time", "Teilzeit 80-100%", "Pensum: 100%", "deeltijd, 32 uur per week", "CDI, temps plein",
                 "Kokoaikainen", "Heltid, tillsvidareanställning", "plný úväzok", "정규직", "正社員"):
        assert "employment" in kinds(term), term
    for address in ("Hafenstraße 12, 20457 Hamburg", "221 Baker Street", "12 rue des Lilas", "Postbus 88",
                    "SW1A 1AA London", "Mannerheimintie 5"):
        assert "address" in kinds(address), address
    assert "label" in kinds("Contract duration: 12 months")
    assert "label/value markup" in kinds("Type Permanent", html="<dl><dt>Type</dt><dd>Permanent</dd></dl>")
    # A menu of links names categories, not this job: only an apply link counts there.
    menu = [("Part-time jobs", "https://x.example/c/part-time"), ("Jobs in Hamburg", "https://x.example/c/hh"),
            ("Remote jobs", "https://x.example/c/remote"), ("Internships", "https://x.example/c/intern")]
    assert kinds(" ".join(t for t, _ in menu), menu) == set()
