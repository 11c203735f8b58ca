"""The pure parts of entity resolution: tracking parameters, ATS ids in links, the fuzzy choice."""

from gigflow.maintenance.matching import ats_ids, best_candidate, match_keys, simhash, strip_tracking

TEXT = ("Plan and run maintenance of our packaging lines, train operators, keep spare parts stocked and "
        "report downtime every week to the plant manager.")


def test_tracking_parameters_and_fragments_do_not_make_another_url():
    plain = strip_tracking("https://Acme.example/jobs/17/")
    assert strip_tracking("https://acme.example/jobs/17?utm_source=x&utm_medium=rss&gclid=1#apply") == plain
    assert strip_tracking("https://acme.example/jobs/17?id=3") != plain
    assert strip_tracking("javascript:alert(1)") is None


def test_ats_ids_from_career_page_apply_links_and_board_urls():
    assert ats_ids("https://acme.example/careers/apply?gh_jid=4012345&gh_src=abc") == {"ats:greenhouse:4012345"}
    assert ats_ids("https://boards.greenhouse.io/acme/jobs/4012345") == {"ats:greenhouse:4012345"}
    assert ats_ids("https://jobs.lever.co/acme/2f4c1e52-1a2b-4c3d-9e8f-001122334455/apply") == {
        "ats:lever:2f4c1e52-1a2b-4c3d-9e8f-001122334455"}
    assert ats_ids("https://evil.example/greenhouse.io/jobs/4012345") == set()
    assert "ats:greenhouse:99" in match_keys({"parser_key": "greenhouse", "external_id": "99", "url": None})


def sighting(location, source="board", parser="greenhouse", title="Maintenance Planner"):
    return {"title": title, "location": location, "description": TEXT, "simhash": simhash(TEXT),
            "source_id": source, "parser_key": parser}


def test_same_title_and_text_in_another_city_is_another_vacancy():
    canonicals = {1: [sighting("Berlin")], 2: [sighting("Munich")]}
    assert best_candidate(sighting("Munich", "page", "jsonld"), canonicals, 0.9)[0] == 2
    assert best_candidate(sighting("Hamburg", "page", "jsonld"), canonicals, 0.9) is None
    # a feed entry naming no city could be either: nothing is merged
    assert best_candidate(sighting(None, "feed", "feed"), canonicals, 0.9) is None
    assert best_candidate(sighting(None, "feed", "feed"), {1: canonicals[1]}, 0.9)[0] == 1
    # one listing naming two postings means two vacancies
    assert best_candidate(sighting("Berlin"), {1: canonicals[1]}, 0.9) is None
    assert best_candidate(sighting("Berlin", "page", "jsonld", title="Welder"), canonicals, 0.9) is None
