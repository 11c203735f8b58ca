"""Round 27 of issue #23: hold-out 26 once measured (GB), built here on synthetic pages.

Hold-out 26 (a French consultancy's career pages) kept 51 of 51 facts with 66.0% of the template removed; what
stayed was the site footer's four offices, each a heading, a street and "31200 Toulouse", while every posting names
its place as "Toulouse, Aix-en-Provence, Paris et Lyon". One office in a footer stays (labels count it as the job's
place); a list of offices in several towns, each of which the posting names, is the company's map: it goes
(`gigflow.noise.learn.office_list`).

The behaviour test fails on the code before round 27 (commit 803bb42); the guards pass on both.
"""

from __future__ import annotations

from noise_helpers import SITE_MENU, duties, learn_four_jobs

from gigflow.noise.learn.office_list import office_town

ORIGIN = "https://conseil.example"
OFFICES = [("Toulouse", "12 Rue des Lilas", "31200 Toulouse"), ("Paris", "82 Av. du Maine", "75014 Paris"),
           ("Lyon", "4 Place Bonnet", "69002 Lyon")]


def _footer(offices) -> str:
    parts = "".join(f"<div class='office'><h3>{town}.</h3><p>{street}<br>{code_town}</p></div>"
                    for town, street, code_town in offices)
    return (f"<footer><div class='offices'>{parts}</div><div class='legal'><a href='/mentions/'>Mentions légales</a>"
            "</div></footer>")


def _posting(place: str, offices):
    def make(k, slug, title, text, need):
        return (f"<html><head><title>{title}</title></head><body><header>{SITE_MENU}</header>"
                f"<main><article><h1>{title}</h1><p>Lieu : {place}</p><p>{text} {duties(title)}</p>"
                f"<h4>Profil</h4><ul><li>{need}</li></ul></article></main>{_footer(offices)}</body></html>")
    return make


def test_gb_offices_the_posting_names_go():
    result, markdown = learn_four_jobs(_posting("Toulouse, Paris et Lyon", OFFICES), ORIGIN)
    assert "Toulouse, Paris et Lyon" in markdown
    for _town, street, code_town in OFFICES:
        assert street not in markdown and code_town not in markdown
    assert "Certified welding experience" in markdown or "Profil" in markdown


def test_gb_guard_offices_the_posting_does_not_name_stay():
    """The posting names one town of three: the offices are the only statement of the others' addresses."""
    _result, markdown = learn_four_jobs(_posting("Toulouse", OFFICES), ORIGIN)
    assert "75014 Paris" in markdown and "69002 Lyon" in markdown


def test_gb_guard_one_office_stays_though_the_posting_names_its_town():
    _result, markdown = learn_four_jobs(_posting("Toulouse", OFFICES[:1]), ORIGIN)
    assert "31200 Toulouse" in markdown and "12 Rue des Lilas" in markdown


def test_gb_the_town_is_the_address_last_line():
    assert office_town("1165 Rue Jean René Guillibert CS 20583\n13290 Aix-en-Provence") == "aix-en-provence"
    assert office_town("3621 Stone Way N Suite G\nSeattle, WA 98103") == "seattle"
    assert office_town("© 2025 Acme GmbH") == ""
    assert office_town("jobs@acme.example\n10115 Berlin") == ""
