"""Round 10 of issue #23 (found on hold-out 5: a small one-employer site whose facts sit in its template).

AA. A site that titles every page by its name alone ("<title>Lindqvist</title>") and states that name as its
    header's brand is owned by that name: its footer ("info@lindqvist.se • Malmö, Sverige") is the employer's
    contact and place and stays; a constant <title> its header does not state names no owner.
AB. In a contact block kept for its phone and mail, the line above them naming the person ("Karin Berg, HR")
    stays with them; a heading "Contact us" is no person.
AC. A list of plain text (no links) whose items vary between pages is the job's list, in a sidebar too: an item
    every job shares ("You speak Swedish and English") is one of its requirements and stays.
AD. "Applications are read on a rolling basis" / "Urval sker löpande" says when the vacancy closes: a deadline.
AE. In the site footer a "Label: value" row is the office's ("Opening hours: Monday - Friday", "Fax: …"): it
    is judged by what it says, not kept for its form; the footer's address, phone and mail stay.
AF. "Apply machine learning analytics to your cloud" in a product menu is the verb with an object of its own, no
    way to apply: the menu goes; "Apply", "Apply now", "Apply for this job" stay ways to apply.
P.  (Preparation) An apply button whose mailto target has a space ("?subject=RE: Actuary") keeps the address and
    the subject as the page wrote them, in a <...> destination (percent-encoded before round 12).
"""

from __future__ import annotations

from markdown_it import MarkdownIt

from gigflow.documents import prepare_html
from gigflow.noise.learn.classifier import ReviewRegion, job_fact_signals, RulesClassifier
from gigflow.noise.learn.learner import learn_noise_filter
from gigflow.noise.learn.owner import site_owner, title_brand
from gigflow.noise.learn.settings import NoiseSettings
from gigflow.noise.learn.training import TrainingPage

ORIGIN = "https://lindqvist.example"
JOBS = [("python", "Python-utvecklare", "Du bygger tjänster i Python.",
         ["Erfarenhet av Python och Django", "Erfarenhet av testautomatisering"]),
        ("ios", "iOS-utvecklare", "Du bygger appar i Swift.",
         ["Erfarenhet av Swift", "Publicerade appar i App Store", "Erfarenhet av UI-design"]),
        ("web", "Webbutvecklare", "Du bygger webbar i React.",
         ["Erfarenhet av React och TypeScript", "Erfarenhet av CSS"]),
        ("sales", "Konsultsäljare", "Du säljer våra konsulter.",
         ["Erfarenhet av B2B-försäljning", "Körkort B"])]
SHARED_ITEM = "Du ska behärska svenska och engelska i tal och skrift"


def _page(title, text, items, *, site_title="Lindqvist", brand="Lindqvist", closing="Urval och tillsättning sker "
          "löpande.", contact_heading=""):
    rows = "".join(f"<li>{item}</li>" for item in items + [SHARED_ITEM])
    return (f"<html><head><title>{site_title}</title></head><body>"
            f"<header><h1>{brand}</h1><nav><ul><li><a href='/pilot/'>Pilotprojektet</a></li>"
            f"<li><a href='/om/'>Om oss</a></li><li><a href='/kontakt/'>Kontakt</a></li></ul></nav></header>"
            f"<main><header><div><h2>{title}</h2></div><div><p>{text} Du är flexibel, positiv och öppen.</p></div>"
            f"</header>"
            f"<article role='complementary'><h2>Vad du förväntas ha i ditt CV:</h2><ul>{rows}</ul></article>"
            f"<article><h2>Vårt erbjudande.</h2><p>En anställningsmodell som ger dig stor valfrihet i vardagen."
            f"</p></article>"
            f"<div class='buttons'><a role='button' href='mailto:jobb@lindqvist.example'>Ansök nu</a>"
            f"<a role='button' href='/modellen'>Läs mer om vår modell</a></div>"
            f"<figure><p>{closing}</p></figure>"
            f"<div class='person'>{contact_heading}<ul><li>Karin Berg, HR</li><li>+46 (0)70 123 45 67</li>"
            f"<li><a href='mailto:jobb@lindqvist.example'>jobb@lindqvist.example</a></li></ul></div></main>"
            f"<footer><p>info@lindqvist.example &bull; <a href='https://social.example/lindqvist'>Lindqvist på "
            f"Facebook</a> &bull; Malmö, Sverige</p></footer></body></html>")


def _pages(**kwargs):
    return [TrainingPage(url=f"{ORIGIN}/jobb/{slug}/", body=_page(title, text, items, **kwargs).encode())
            for slug, title, text, items in JOBS]


def learn_and_apply(pages):
    result = learn_noise_filter(pages[:3], None, RulesClassifier(NoiseSettings()), config_hash="h")
    return prepare_html(pages[3].body, pages[3].url, noise_filter=result.filter).markdown


def test_aa_a_site_titled_by_its_name_alone_is_its_owners_and_the_footer_stays():
    pages = _pages()
    roots = [p.prepared() for p in pages]
    assert title_brand(roots[0]) == ["Lindqvist"]
    assert site_owner(pages, roots) == "Lindqvist"
    markdown = learn_and_apply(pages)
    for fact in ("Malmö, Sverige", "Lindqvist", "Konsultsäljare", "Du säljer våra konsulter."):
        assert fact in markdown, fact
    assert "Pilotprojektet" not in markdown and "Läs mer om vår modell" not in markdown


def test_aa_a_constant_title_the_header_does_not_state_names_no_owner():
    pages = _pages(brand="Välkommen")
    roots = [p.prepared() for p in pages]
    assert title_brand(roots[0]) == []
    assert site_owner(pages, roots) == ""
    page = TrainingPage(url=f"{ORIGIN}/", body=b"<html><head><title>Jobs</title></head><body><header><h1>Jobs</h1>"
                                                b"</header></body></html>")
    assert title_brand(page.prepared()) == []  # a page word is no name


def test_ab_the_name_above_a_contacts_phone_stays_and_a_contact_heading_is_no_person():
    markdown = learn_and_apply(_pages())
    for fact in ("Karin Berg, HR", "+46 (0)70 123 45 67", "jobb@lindqvist.example"):
        assert fact in markdown, fact
    markdown = learn_and_apply(_pages(contact_heading="<div><h3>Kontakta oss</h3></div>"))
    assert "Karin Berg, HR" in markdown


def test_ac_an_item_every_job_shares_in_a_plain_list_that_varies_stays():
    markdown = learn_and_apply(_pages())
    for fact in (SHARED_ITEM, "Erfarenhet av B2B-försäljning", "Körkort B"):
        assert fact in markdown, fact


def test_ad_a_rolling_deadline_is_a_date_fact():
    for line in ("Urval och tillsättning sker löpande.", "Applications are reviewed on a rolling basis.",
                 "Bewerbungen prüfen wir laufend."):
        region = ReviewRegion(id="r1", selector="figure", signature="s", tag="figure", text=line, links=(),
                              html=f"<p>{line}</p>")
        assert any(s.kind == "date" for s in job_fact_signals(region)), line
    markdown = learn_and_apply(_pages(closing="Applications are reviewed on a rolling basis."))
    assert "Applications are reviewed on a rolling basis." in markdown
    for line in ("Our running club meets weekly.", "Laufende Projekte"):
        region = ReviewRegion(id="r1", selector="p", signature="s", tag="p", text=line, links=(), html=f"<p>{line}</p>")
        assert not any(s.kind == "date" for s in job_fact_signals(region)), line


def test_ae_the_footers_opening_hours_go_while_its_address_and_phone_stay():
    footer = ("<footer><div class='grid'><div class='col'><p><strong>Nordlicht Logistik GmbH<br></strong>"
              "Hafenstr. 6<br>93092 Barbing</p></div><div class='col'><p>T: +49 (0)94 01-53 944-0<br>"
              "M: <a href='mailto:dispo@nordlicht.example'>dispo@nordlicht.example</a></p></div>"
              "<div class='col'><p><strong>Opening hours:<br></strong>Monday - Friday<br>08:00 - 17:00</p></div>"
              "</div></footer>")

    def page(title, text):
        return (f"<html><head><title>{title} | Nordlicht</title></head><body><header><a href='/'>Home</a>"
                f"<a href='/fleet/'>Fleet</a><a href='/jobs/'>Jobs</a><a href='/contact/'>Contact</a></header>"
                f"<main><h1>{title}</h1><p>{text}</p></main>{footer}</body></html>").encode()

    jobs = [("driver", "Truck Driver", "Long-haul tours across Europe."),
            ("dispatcher", "Dispatcher", "Plan our tours and drivers."),
            ("mechanic", "Mechanic", "Keep our fleet on the road."),
            ("clerk", "Freight Clerk", "Invoices and customs papers.")]
    pages = [TrainingPage(url=f"https://nordlicht.example/jobs/{slug}/", body=page(title, text))
             for slug, title, text in jobs]
    markdown = learn_and_apply(pages)
    for fact in ("Hafenstr. 6", "93092 Barbing", "+49 (0)94 01-53 944-0", "dispo@nordlicht.example",
                 "Invoices and customs papers."):
        assert fact in markdown, fact
    assert "Opening hours" not in markdown and "Monday - Friday" not in markdown


def test_af_apply_with_an_object_of_its_own_in_a_menu_is_no_way_to_apply():
    def region(text, href="/product/"):
        return ReviewRegion(id="r1", selector="nav", signature="s", tag="nav", text=text, links=((text, href),),
                            html=f"<a href='{href}'>{text}</a>")

    for text in ("Monitoring Apply machine learning analytics to cloud infrastructure.", "Apply filters to logs"):
        assert not any(s.kind == "apply" for s in job_fact_signals(region(text))), text
    for text in ("Apply", "Apply now", "Apply for this job", "Apply online", "Jetzt bewerben"):
        assert any(s.kind == "apply" for s in job_fact_signals(region(text, "/jobs/1/"))), text


def test_p_a_mailto_with_a_space_keeps_its_address_and_subject_as_the_page_wrote_them():
    body = ("<html><body><main><h1>Actuary</h1><p>Model risk.</p>"
            "<a class='btn' href='mailto:careers@fortress.example?subject=RE: Actuary (Life)'>Apply Today</a>"
            "<a href='mailto:careers@fortress.example?subject=Hi <b>&#10;\u202ethere\\'>Write to us</a>"
            "</main></body></html>").encode()
    markdown = prepare_html(body, f"{ORIGIN}/careers/actuary/").markdown
    # Since round 12: written <...> (CommonMark's destination with spaces), the subject as the page wrote it.
    assert "[Apply Today](<mailto:careers@fortress.example?subject=RE: Actuary (Life)>)" in markdown
    rendered = MarkdownIt().render(markdown)
    assert 'href="mailto:careers@fortress.example?subject=RE:%20Actuary%20(Life)"' in rendered
    # Brackets, backslashes, line breaks and bidi controls stay encoded: nothing closes the destination early
    # or reorders what a reader sees.
    assert "(<mailto:careers@fortress.example?subject=Hi %3Cb%3E%E2%80%AEthere%5C>)" in markdown
    assert 'href="mailto:careers@fortress.example?subject=Hi%20%3Cb%3E%E2%80%AEthere%5C"' in rendered
