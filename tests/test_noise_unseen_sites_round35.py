"""Round 35 of issue #23: what hold-outs 125-134 showed at first measurement, on synthetic pages.

- JD (hold-out 125, a physics group's Hugo job news): under each post a "Related content" aside holds a heading
  and, two wrappers down, cards linking to other posts. The cards differ on every page, so the aside learned on
  three pages was "changed since learning" on the fourth and stayed. A list of the site's other postings under its
  heading is one region whatever it lists, also where layout wrappers stand between the heading and the list.
- JE (hold-out 126, a data consultancy's postings): the job's key-facts list ends with "Questions beforehand:
  info@…". The label stayed as a field label inside the job content, but its value, the same on every page and a
  general mailbox (no contact signal on its own), was learned as template and went. The value of a field label
  inside the job content (a dd, a td after a th) is job content as its label is.
- JF (hold-out 134, an AI consultancy's Hugo careers): the footer's last line links "Kathmandu, Nepal" beside the
  terms; no pattern read the town and country, and the line went. A known town and its country (GeoNames) in the
  site footer is where the employer is: a location.
- JG (hold-out 131, a chatbot studio's careers): under "Apply now" the only way to apply is "Contact us in
  messenger", a link to the studio's Messenger address (m.me). It was read as no fact and went. A chat link to one
  address (m.me, wa.me, WhatsApp's send link) is whom to write to, as a tel: link is; several such links to
  different addresses (the footer's client bots) are a list of other parties.
- JH (hold-out 132, a software firm's Gatsby careers): every <title> starts "Job Openings - ", so the site was
  taken for a job board and only ways to apply counted in what its pages share: the footer with the HR mailbox
  and both offices went. A listing name made only of words naming a section ("Job Openings", "Current
  Vacancies") says nothing about whose jobs a site lists: no board by that alone.

Each behaviour test fails on the code before round 35 (commit 8ba48ed).
"""

from __future__ import annotations

from noise_helpers import FOUR_JOBS, SITE_MENU, learn_four_jobs

ORIGIN = "https://www.acme-works.example"


CITIES = ("Berlin", "London", "Stockholm", "Delhi", "Tokyo", "Madrid", "Vienna", "Ottawa", "Nairobi", "Lima", "Oslo",
          "Seoul", "Cairo", "Dublin", "Quito", "Hanoi")


def _with_related_cards(k, slug, title, text, need):
    others = "".join(f"<article><a href='/jobs/{CITIES[4 * max(k - 1, 0) + n].lower()}/'><div class='details'><h2 class='title'>"
                      f"Attaché in {CITIES[4 * max(k - 1, 0) + n]}</h2></div></a></article>" for n in range(4))
    return (f"<html><head><title>{title} | Acme Works</title></head><body><div class='container'>{SITE_MENU}"
            f"<main class='main'><article><h1>{title}</h1><p>{text} You join a team of twelve in the north hall."
            f"</p><ul><li>{need}</li></ul></article><aside class='related-wrapper'><h2 class='section-title'>Related "
            f"content</h2><div class='related'><div class='tiles'>{others}</div></div></aside></main></div>"
            "<footer><a href='/privacy/'>Privacy</a></footer></body></html>")


def test_jd_related_cards_under_their_heading_through_wrappers_go_on_an_unseen_page():
    result, markdown = learn_four_jobs(_with_related_cards, ORIGIN)
    assert "Attaché in Oslo" not in markdown and "Related content" not in markdown, markdown
    assert "Experience in purchasing" in markdown and "Steel Buyer" in markdown, markdown


def test_jd_sibling_list_under_heading_looks_through_wrappers_only():
    import lxml.html

    from gigflow.noise.signature import SelfReferences, sibling_postings_list

    page = lxml.html.fromstring(_with_related_cards(0, "welder", "Pipe Welder", "x", "y"))
    page.make_links_absolute(f"{ORIGIN}/jobs/welder/")  # as preparation leaves them
    refs = SelfReferences.of_page(page, f"{ORIGIN}/jobs/welder/")
    assert sibling_postings_list(page.find_class("related-wrapper")[0], refs)
    # a wrapper with words of its own beside the list is no mere wrapper
    worded = lxml.html.fromstring(_with_related_cards(0, "welder", "Pipe Welder", "x", "y").replace(
        "<div class='tiles'>", "Our pick of the week, chosen for you by the team.<div class='tiles'>"))
    worded.make_links_absolute(f"{ORIGIN}/jobs/welder/")
    assert not sibling_postings_list(worded.find_class("related-wrapper")[0], refs)


def test_je_a_label_value_of_links_only_in_the_job_content_is_content():
    from gigflow.noise.learn.template import analyse_template
    from gigflow.noise.learn.training import TrainingPage
    from gigflow.noise.signature import SelfReferences

    def page(k, slug, title, text, need):
        return (f"<html><head><title>{title} | Acme Works</title></head><body><header>{SITE_MENU}</header><main>"
                f"<article><h1>{title}</h1><dl><div><dt>Location</dt><dd>{('Porto', 'Braga', 'Faro')[k]}</dd></div>"
                "<div><dt>Questions</dt><dd><a href='mailto:info@acme-works.example'>info@acme-works.example</a></dd>"
                f"</div></dl><p>{text} You join a team of twelve in the north hall.</p><ul><li>{need}</li></ul></article>"
                "</main><footer><a href='/privacy/'>Privacy</a></footer></body></html>")

    samples = [TrainingPage(url=f"{ORIGIN}/jobs/{slug}/", body=page(k, slug, title, text, need).encode())
               for k, (slug, title, text, need) in enumerate(FOUR_JOBS[:3])]
    roots = [s.prepared() for s in samples]
    template = analyse_template(roots, [SelfReferences.of_page(r, s.url) for r, s in zip(roots, samples)])
    mailbox = roots[0].xpath("//dd[a]")[0]
    assert template.is_content(mailbox) == "the value of a field label inside the job content"
    assert template.is_content(roots[0].xpath("//footer/a")[0]) == ""  # a link outside the job's content


def _with_place_in_footer(k, slug, title, text, need):
    return (f"<html><head><title>{title} | Acme Works</title></head><body><header>{SITE_MENU}</header><main>"
            f"<h1>{title}</h1><p>{text} You join a team of twelve in the north hall.</p><ul><li>{need}</li></ul>"
            "</main><footer><div class='menu'><a href='/about/'>About</a><a href='/blog/'>Blog</a></div><div "
            "class='bottom'><p class='copy'>© 2026 Acme Works Ltd, all rights reserved.</p><div class='decl'><a "
            "class='copy' href=''>Porto, Portugal</a> <a class='copy' href=''>Terms &amp; Conditions</a></div></div>"
            "</footer></body></html>")


def test_jf_a_town_and_its_country_in_the_site_footer_stays():
    result, markdown = learn_four_jobs(_with_place_in_footer, ORIGIN)
    assert "Porto, Portugal" in markdown, markdown
    assert "Blog" not in markdown, markdown


def test_jf_town_and_country_reads_place_names_only():
    from gigflow.noise.learn.classifier import _town_and_country_in

    assert _town_and_country_in("© 2026 Acme Ltd, all rights reserved. Porto, Portugal Terms") == "Porto, Portugal"
    assert _town_and_country_in("Austin, TX") == "Austin, TX"
    assert _town_and_country_in("Terms, Conditions and Privacy, Cookies") == ""
    assert _town_and_country_in("Germany, France") == ""  # countries alone name no office
    assert _town_and_country_in("He co-founded Amara, and you, and Miro") == ""  # "and": no Andorra in prose
    # bounded on a hostile footer: a long run of commas is read in linear time and finds nothing
    assert _town_and_country_in("word, " * 30000) == ""


def _with_messenger(k, slug, title, text, need):
    return (f"<html><head><title>{title} | Acme Works</title></head><body><header>{SITE_MENU}</header><div "
            f"class='page'><h1>{title}</h1><p>{text} You join a team of twelve in the north hall.</p><ul><li>{need}"
            "</li></ul><h2 class='apply-heading'>Apply now</h2><div class='apply-body'><a href='http://m.me/"
            "acmeworks?ref=career' class='btn'>Contact us in messenger</a><form action='/send'><input name='name' "
            "placeholder='Your name'><textarea name='letter'></textarea><button>Send</button></form></div></div>"
            "<footer><div class='cases'><h5>Cases</h5><a href='https://www.m.me/bakery.bot'>Bakery</a> <a href="
            "'https://www.m.me/tours.bot'>Tours</a> <a href='https://www.m.me/shop.bot'>Shop</a></div></footer>"
            "</body></html>")


def test_jg_a_messenger_link_under_apply_now_is_the_way_to_apply():
    result, markdown = learn_four_jobs(_with_messenger, ORIGIN)
    assert "http://m.me/acmeworks?ref=career" in markdown, markdown
    assert "bakery.bot" not in markdown, markdown


def test_jg_chat_links_to_several_addresses_are_no_contact():
    from noise_helpers import signal_kinds

    assert "link" in signal_kinds("Contact us in messenger", [("Contact us in messenger", "http://m.me/acme")])
    assert "link" in signal_kinds("WhatsApp", [("WhatsApp", "https://wa.me/351912345678")])
    # a share button or a canned sales line is no one to write to about this job
    assert "link" not in signal_kinds("Share", [("Share", "https://api.whatsapp.com/send?text=Look%20https://x.example/j")])
    assert "link" not in signal_kinds("Bakery Tours", [("Bakery", "https://m.me/bakery"), ("Tours", "https://m.me/tours")])
    assert "link" not in signal_kinds("Our channel", [("Our channel", "https://t.me/acme_news")])


def _section_titled(k, slug, title, text, need):
    return (f"<html><head><title>Job Openings - {title}</title></head><body><header>{SITE_MENU}</header><section>"
            f"<h1>{title}</h1><p>{text} You join a team of twelve in the north hall.</p><ul><li>{need}</li></ul>"
            "</section><footer><div class='offices'><h5>Berlin</h5>Lindenweg 4, 10115 Berlin</div><div "
            "class='careers'><h5>Careers</h5><p>hr@acme-works.example</p></div><div class='links'><a href='/about/'>"
            "About</a> <a href='/blog/'>Blog</a></div><p>Copyright 2022 Acme Works. All Rights Reserved</p></footer>"
            "</body></html>")


def test_jh_a_section_title_naming_job_openings_makes_no_board():
    from gigflow.noise.learn.owner import looks_like_a_board
    from gigflow.noise.learn.training import TrainingPage

    result, markdown = learn_four_jobs(_section_titled, ORIGIN)
    assert "hr@acme-works.example" in markdown and "10115 Berlin" in markdown, markdown
    pages = [TrainingPage(url=f"{ORIGIN}/jobs/{slug}/", body=_section_titled(k, slug, title, text, need).encode())
             for k, (slug, title, text, need) in enumerate(FOUR_JOBS)]
    assert looks_like_a_board(pages, [p.prepared() for p in pages]) == ""


def test_jh_a_listing_name_with_a_name_of_its_own_is_still_a_board():
    from gigflow.noise.learn.owner import _names_a_site

    assert _names_a_site("Greenfield Jobs") and _names_a_site("Jobs Nordwind")
    assert not _names_a_site("Job Openings") and not _names_a_site("Current Vacancies")
    assert not _names_a_site("Our Jobs") and not _names_a_site("Careers - Open Positions")
