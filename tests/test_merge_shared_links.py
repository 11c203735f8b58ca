"""Wrong merges (issue #24): a URL many pages of a source share (a menu's "apply" link, a listing, a general
application page) is never identity evidence, and `scrapy jobs resolve` reports the merges it refused."""

from __future__ import annotations

import csv
import io
import json

from scripted_server import Reply, ScriptedServer
from helpers import crawl_sequence, import_source, scrapy_command

VACANCIES = (("Fahrkartenkontrolleur", "Bremen"), ("Fahrkartenkontrolleur", "Stuttgart"),
             ("Sicherheitsmitarbeiter", "Essen"), ("Sicherheitsmitarbeiter", "Frankfurt am Main"))


def vacancy_page(job: str, city: str) -> bytes:
    """A career site's per-vacancy application page: the menu's "Jetzt bewerben" links to the listing on every
    page, the job and city sit in the h1, a form heading below it."""
    return (f'<html><head><title>Bewerbung Quereinsteiger (m/w/d) {job} {city} – Muster Sicherheit</title></head>'
            '<body><header><a href="/">Muster</a><ul><li><a href="/stellenangebote/">Stellenangebote</a></li>'
            '<li><a href="/stellenangebote/" class="btn-primary">Jetzt bewerben</a></li></ul></header>'
            f'<section><div class="section-header"><h1>Bewerbung als Quereinsteiger (m/w/d) {job} ({city})</h1>'
            '<ul class="nav-facts"><li><b>Vergütung:</b> 15,50 € pro Stunde</li><li><b>Arbeitszeit:</b> Vollzeit, '
            'Schichtdienst</li><li><b>Bewerbungsfrist:</b> 31.12.2026</li></ul></div><div class="form-card"><h2 class="form-title">Bewerbungsformular</h2><form method="post">'
            '<input name="vorname"><input name="nachname"><input name="email"><input name="cv" type="file">'
            '<button type="submit">Absenden</button></form></div></section>'
            '<footer><p>Copyright &copy; 2026 – Muster Sicherheit GmbH</p></footer></body></html>').encode()


def slug(job: str, city: str) -> str:
    return f"{job}-{city.replace(' ', '-')}"


def route(path: str, headers: dict) -> Reply:
    if path == "/robots.txt":
        return Reply(body=b"User-agent: *\nAllow: /\n", headers={"Content-Type": "text/plain"})
    if path == "/stellenangebote/":
        cards = "".join(f'<li class="job-card"><a href="/bewerbung/{slug(j, c)}/">{j} in {c}</a></li>'
                        for j, c in VACANCIES)
        return Reply(body=f"<html><body><h1>Stellenangebote</h1><ul>{cards}</ul></body></html>".encode())
    for job, city in VACANCIES:
        if path == f"/bewerbung/{slug(job, city)}/":
            return Reply(body=vacancy_page(job, city))
    return Reply(status=404, body=b"not found")


def canonical_groups(pool) -> list[list[str]]:
    with pool.connection() as conn:
        rows = conn.execute("SELECT l.canonical_id, j.source_id, j.title FROM canonical_links l "
                            "JOIN jobs j ON j.id = l.job_id JOIN canonical_jobs c ON c.id = l.canonical_id "
                            "WHERE c.merged_into IS NULL ORDER BY l.canonical_id, j.id").fetchall()
    groups: dict[int, list[str]] = {}
    for row in rows:
        groups.setdefault(row["canonical_id"], []).append(row["source_id"])
    return list(groups.values())


def test_four_vacancies_sharing_a_menu_apply_link_stay_four_canonical_jobs(pool):
    with ScriptedServer(route) as server:
        import_source(pool, {"id": "muster-href", "company": "Muster Sicherheit", "status": "active",
                             "canonical_url": f"{server.url}/stellenangebote/", "strategies": [
                                 {"type": "href", "listing_urls": [f"{server.url}/stellenangebote/"],
                                  "card_selector": "li.job-card", "job_url_patterns": ["/bewerbung/"]}]},
                      server.url)
        assert crawl_sequence(("href", "muster-href")) == [0]
    with pool.connection() as conn:
        jobs = conn.execute("SELECT title, fields FROM jobs WHERE source_id = 'muster-href'").fetchall()
    assert len(jobs) == 4
    assert {(j["fields"]["location"]) for j in jobs} == {c for _, c in VACANCIES}
    assert not any("formular" in j["title"].lower() for j in jobs)
    assert sorted(map(len, canonical_groups(pool))) == [1, 1, 1, 1]

    exported = scrapy_command("jobs", "--format", "csv")
    assert exported.returncode == 0, exported.stderr
    rows = list(csv.DictReader(io.StringIO(exported.stdout)))
    assert len(rows) == 4 and {r["location"] for r in rows} == {c for _, c in VACANCIES}
    for row in rows:  # flat columns a spreadsheet reads as they are
        assert row["valid_through"] == "2026-12-31" and row["employment_types"] == "full_time,shift"
        assert row["salary_min"] == "15.5" and row["salary_currency"] == "EUR" and row["salary_period"] == "HOUR"
        assert row["salary_annual_min"] == str(15.5 * 2080) and row["salary_text"] == "15,50 € pro Stunde"
        assert row["first_seen"] <= row["last_seen"]
        evidence = json.loads(row["evidence"])
        assert evidence["location"]["method"] == "gazetteer" and "salary_text" in evidence
        assert "Bewerbung als Quereinsteiger" in row["description_markdown"]
    first = json.loads(scrapy_command("jobs", "--format", "jsonl").stdout.splitlines()[0])
    assert first["valid_through"] == "2026-12-31" and first["salary_max"] == 15.5


def test_a_link_shared_by_a_sources_pages_never_merges_and_the_refusal_is_reported(pool):
    """Even when extraction cannot tell the pages apart (same title, no place), the shared apply link joins
    nothing and `jobs resolve` names it; a sighting of another source carrying that link joins none of them."""
    for source in ("muster-pages", "muster-board"):
        import_source(pool, {"id": source, "company": "Muster Sicherheit", "canonical_url": f"https://{source}.example/",
                             "strategies": [{"type": "feed", "feed_urls": [f"https://{source}.example/f.xml"]}]},
                      "https://muster.example")

    def sight(source: str, url: str) -> None:
        with pool.connection() as conn:
            conn.execute("INSERT INTO jobs (canonical_key, source_id, title, url, fields, confidence, parser_key,"
                         " parser_version) VALUES (%s, %s, 'Bewerbungsformular', %s, %s, 0.5, 'generic-html', '2')",
                         (f"url:{url}", source, url,
                          json.dumps({"apply_url": "https://muster.example/stellenangebote/"})))

    for job, city in VACANCIES:
        sight("muster-pages", f"https://muster.example/bewerbung/{slug(job, city)}/")
    first = scrapy_command("jobs", "resolve")
    assert first.returncode == 0, first.stderr
    assert sorted(map(len, canonical_groups(pool))) == [1, 1, 1, 1]
    sight("muster-board", "https://muster-board.example/jobs/1")
    second = scrapy_command("jobs", "resolve")
    assert second.returncode == 0, second.stderr
    assert sorted(map(len, canonical_groups(pool))) == [1, 1, 1, 1, 1]
    [line] = [line for line in first.stdout.splitlines() if line.startswith("refused:")]
    assert "stellenangebote" in line and "muster-pages" in line and "shared by 4 jobs of the source" in line
    assert "refused: " not in second.stdout
