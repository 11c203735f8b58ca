"""Round 33 of issue #23: what the hold-outs first measured in wave 3's sixteenth stop showed, on synthetic pages.

- IM (hold-out 94, an HVAC firm's hand-written career pages): two of three postings share their whole description
  word for word (an office clerk and a technical clerk, one text under two titles). Learned from those three pages,
  the shared description was a "block the first sample lacks, the same on two others" (a notice or banner on some
  pages only) and went whole: 20 facts. Where the block stands where the first sample's job text stands, it is the
  text of the postings that share it.
- IN (hold-out 99, a hospitality job board): under each title "Istanbul, Türkiye • 865 kişi görüntüledi" (the
  place and a view count); two postings read "0 kişi görüntüledi", so the line was such a block too, and went with
  the place: 5 facts. A block the first sample has in the same place with other numbers is not missing there.
- IO (hold-out 99): the board's header links to its "İşveren Portalı" (the employers' portal): Turkish and Russian
  pages for employers now make a board as the English, German or Polish ones do, and its licence line, phone and
  copyright in the footer are the operator's.

- IP (hold-out 101, a digital agency's HTTrack copy): its offices are lists of "Roosendaal (HQ)", "Aanwas 35, 4704
  SC" and a phone. Split into items, the town's item had no signal and went, and the street line's Dutch postcode
  read as no address: 10 facts. A short line naming a place right before an address line names that office.
- IQ (hold-out 100, a machine builder's TYPO3 copy): its benefit cards sit in a section of their own, right after a
  short one that opens with "Unsere Mehrwerte" (our benefits) and an intro; the cards went with no signal. A block
  whose nearest earlier sibling opens with a heading naming a posting's section is under that heading. Its HR
  mailbox is the text of a link that decodes it by script ("personal(at)acme.example"): a link whose words are a
  mailbox, a phone or a day's date is that contact or date.
- IR (hold-out 102, a toothpaste maker's WordPress copy): "Posted on <a rel=bookmark><time>06/12/2022</time><time>
  06/12/2022</time></a>" read as "06/12/202206/12/2022", no date. A <time datetime> element is a date by markup.
- IS (hold-out 102, a labour agency's board): the list of other postings is on four pages of six, under its heading
  "Các tin tuyển dụng khác:". Known by what it links to, it is learned once two samples show it, with its heading;
  and "Toàn thời gian" (full-time) is an employment type, as "Tam zamanlı" and "Penuh waktu" are.

- IT (hold-out 95, a charity's saved WordPress site): every page carries pop-up cards for the charity's twelve
  houses (a town, an address, the couple who run it, a mailbox, a phone): 927 characters kept as contacts. Five or
  more cards of one kind, each with a mailbox or phone of its own, are the site's directory, not this job's contact.
- IU (hold-out 105, a software firm's crawled copy): an "Apply Now" modal whose inputs a script sends (no <form>)
  labels one "Current Salary", read as the job's salary. A field label beside inputs names an input, with or
  without a <form> element.

- IV (hold-out 102, a toothpaste maker's WordPress copy): three Vietnamese and three English versions of its
  postings, each language with its own menu and footer words. Each version's template was on half the samples, so
  none was learned (47.9%). Where the samples' <html lang> differ, the quorum is counted among the samples in the
  first one's language. Its Vietnamese footer then needed reading: "Công ty TNHH …" (a limited company) in the
  copyright line is the employer, "Địa chỉ:" (address) names a place.

- IW (hold-out 106, a Hanoi app maker's HTTrack copy): its sidebar reads "Mức lương:" (salary) and "Lên tới 25
  Triệu" (up to 25 million dong) on three postings; the row went as template with no signal: 4 facts. Vietnamese,
  Turkish and Indonesian amounts and salary labels are amounts ("25 Triệu", "8tr", "15.000 TL", "Rp 5.000.000").

- IX (hold-out 107, a Tokyo agency's career pages): no header, nav or footer element anywhere (a script fills
  them), so the job's region is guessed as wide as <body>, and the question form's pop-up after the footer's
  placeholder stayed as job content: 0.0% removed. A modal dialog (its role, aria-modal or class "modal") is judged
  like any control, wherever the job's region is guessed.

Each behaviour test fails on the code before round 33 (commit 986677e).
"""

from __future__ import annotations

import lxml.html
from noise_helpers import FOUR_JOBS, SITE_MENU, learn_four_jobs, signal_kinds

from gigflow.documents import prepare_html
from gigflow.noise.learn.learner import learn_noise_filter
from gigflow.noise.learn.owner import looks_like_a_board
from gigflow.noise.learn.settings import NoiseSettings
from gigflow.noise.learn.classifier import RulesClassifier
from gigflow.noise.learn.training import TrainingPage

ORIGIN = "https://www.acme-air.example"
SHARED_DESCRIPTION = ("<h2>Stellenbeschreibung</h2><p>Acme Air plans and services ventilation systems for offices and "
                      "schools in the region.</p><h2>Ihre Aufgaben</h2><ul><li>Preparing offers and invoices</li>"
                      "<li>Keeping the order book</li></ul><h2>Ihr Profil</h2><ul><li>A completed commercial "
                      "training</li><li>Good spoken English</li></ul>")


def _posting(title: str, description: str, meta: str = "") -> str:
    return (f"<html><head><title>{title} | Acme Air</title></head><body><header>{SITE_MENU}</header><main>"
            f"<section class='hero'><div><h1>{title}</h1>{meta}</div></section><section class='detail'><div>"
            f"<div class='detail-content'>{description}</div><aside><h3>{title}</h3><a href='mailto:jobs@acme-air."
            "example'>Apply by mail</a></aside></div></section></main><footer><p>Acme Air, Ventilation and Air Conditioning. "
            "Our team plans, builds and services systems for offices and schools across the whole region.</p>"
            "<a href='/imprint/'>Imprint</a> <a href='/privacy/'>Privacy</a></footer></body></html>")


def _learn(pages: list[TrainingPage]):
    return learn_noise_filter(pages, None, RulesClassifier(NoiseSettings()), config_hash="h").filter


def test_im_two_postings_sharing_their_text_keep_it():
    own = ("<h2>Stellenbeschreibung</h2><p>You install ventilation plants on our building sites.</p><h2>Ihre "
           "Aufgaben</h2><ul><li>Mounting ducts and units</li><li>Servicing plants at the customers</li></ul>")
    pages = [TrainingPage(url=f"{ORIGIN}/karriere/{slug}.html", body=_posting(title, text).encode())
             for slug, title, text in (("fitter", "HVAC Fitter", own),
                                       ("clerk", "Office Clerk", SHARED_DESCRIPTION),
                                       ("technical-clerk", "Technical Clerk", SHARED_DESCRIPTION))]
    noise_filter = _learn(pages)
    for page in pages[1:]:
        markdown = prepare_html(page.body, page.url, noise_filter=noise_filter).markdown
        for fact in ("Preparing offers and invoices", "A completed commercial training", "Good spoken English"):
            assert fact in markdown, markdown
    assert "Products" not in markdown


def _counted(k, slug, title, text, need):
    views = (865, 0, 0, 12)[k]
    meta = f"<p class='meta'>Springfield, Ohio • {views} people viewed this</p>"
    description = f"<p>{text} You join a team of twelve in the north hall.</p><ul><li>{need}</li></ul>"
    return _posting(title, description, meta)


def test_in_a_line_that_differs_only_in_its_numbers_is_no_notice_missing_on_the_first_sample():
    pages = [TrainingPage(url=f"{ORIGIN}/jobs/{slug}/", body=_counted(k, slug, title, text, need).encode())
             for k, (slug, title, text, need) in enumerate(FOUR_JOBS)]
    noise_filter = _learn(pages[:3])
    for page in pages[1:]:
        markdown = prepare_html(page.body, page.url, noise_filter=noise_filter).markdown
        assert "Springfield, Ohio" in markdown, markdown
    assert "Products" not in markdown


def _board_page(k: int, portal: str) -> TrainingPage:
    slug, title, text, need = FOUR_JOBS[k]
    employer = ("Doğuş Hospitality", "Portal Fintech", "Viyana Kahvesi")[k]
    body = (f"<html><head><title>CatchAll - İş Bulmanın En Kolay Yolu</title></head><body><header>"
            f"<a href='/'>Anasayfa</a> <a href='/jobs'>Aktif İlanlar</a> <a href='https://panel.catchall.example/'>"
            f"{portal}</a></header><main><h2>{employer}</h2><h1>{title}</h1><p>{text}</p><ul><li>{need}</li></ul>"
            "</main><footer><p>© Copyright CatchAll. Tüm hakları saklıdır.</p></footer></body></html>")
    return TrainingPage(url=f"https://catchall.example/job/{slug}/", body=body.encode())


def test_io_a_turkish_or_russian_page_for_employers_makes_a_board():
    for portal in ("İşveren Portalı", "İş Veren Portalı", "Работодателям"):
        samples = [_board_page(k, portal) for k in range(3)]
        assert looks_like_a_board(samples, [s.prepared() for s in samples]), portal
    samples = [_board_page(k, "Hakkımızda") for k in range(3)]
    assert not looks_like_a_board(samples, [s.prepared() for s in samples])


def _offices(k, slug, title, text, need):
    offices = "".join(f"<ul><li><span class='city-name'>{town}</span></li><li><span>{street}</span></li><li><a "
                      f"href='tel:{phone}'>{phone}</a></li></ul>" for town, street, phone in (
                          ("Roosendaal (HQ)", "Aanwas 35, 4704 SC", "085 021 11 21"),
                          ("Den Haag (HUB)", "Binckhorstlaan 36, 2516 BE", "085 021 11 22")))
    return (f"<html><head><title>{title} - Acme</title></head><body><div class='offcanvas'>{SITE_MENU}"
            f"<div class='contact'>{offices}</div></div><main><h1>{title}</h1><p>{text} You join a team of twelve "
            f"in the north hall.</p><ul><li>{need}</li></ul></main><footer><a href='/privacy/'>Privacy</a></footer>"
            "</body></html>")


def test_ip_the_place_naming_an_office_above_its_address_stays():
    _result, markdown = learn_four_jobs(_offices, ORIGIN)
    for town in ("Roosendaal (HQ)", "Den Haag (HUB)"):
        assert town in markdown, markdown
    assert "Products" not in markdown
    assert "address" in signal_kinds("Aanwas 35, 4704 SC")


def _scripted_mailbox(k, slug, title, text, need):
    return (f"<html><head><title>{title} | Acme</title></head><body><header>{SITE_MENU}</header>"
            f"<section class='job'><h1>{title}</h1><p>{text} You join a team of twelve in the north hall.</p><ul>"
            f"<li>{need}</li></ul></section><footer><div class='contact'><div class='icon'>email</div><div><a href="
            "\"javascript:linkTo_UnCryptMailto('ocknvq,rgtuqpcn')\">personal(at)hr-post.example</a></div></div>"
            "<a href='/imprint/'>Imprint</a></footer></body></html>")


def test_iq_benefit_cards_under_a_short_section_naming_them_are_under_its_heading():
    from gigflow.noise.learn.template import job_section_above

    page = lxml.html.fromstring(
        "<html><body><section class='intro'><h2>Unsere Mehrwerte</h2><p>Bei Acme sehen wir den ganzen Menschen."
        "</p></section><section class='boxes'><div><h4>Gleitzeit</h4><p>Anfang und Ende wählen Sie selbst.</p>"
        "</div><div><h4>Sichere Arbeitsplätze</h4></div></section><section class='more'><p>Ein langer Absatz.</p>"
        "</section></body></html>")
    boxes, after = page.find_class("boxes")[0], page.find_class("more")[0]
    assert job_section_above(boxes) == "Unsere Mehrwerte"
    assert job_section_above(after) == ""  # only the nearest block's opening heading counts


def test_iq_a_mailbox_written_as_a_scripted_links_words_stays():
    _result, markdown = learn_four_jobs(_scripted_mailbox, ORIGIN)
    assert "personal(at)hr-post.example" in markdown, markdown
    assert "Products" not in markdown


def test_ir_a_time_element_is_a_date_however_its_words_run_together():
    from gigflow.noise.learn.classifier import job_fact_signals
    from gigflow.noise.learn.region_review import review_region

    page = lxml.html.fromstring(
        "<html><body><article><header class='entry-header'><h1>Sales Supervisor</h1><span class='posted-on'>Posted "
        "on <a href='https://acme.example/jobs/sales/' rel='bookmark'><time class='published' datetime='2022-12-"
        "06T11:24:04+07:00'>06/12/2022</time><time class='updated' datetime='2022-12-06T11:24:17+07:00'>06/12/2022"
        "</time></a></span></header></article><nav><a href='/blog/a/'><time datetime='2020-12-21'>Dec 21</time></a>"
        "<a href='/blog/b/'><time datetime='2020-12-17'>Dec 17</time></a></nav></body></html>")
    permalink, menu = page.find(".//a[@rel='bookmark']"), page.find(".//nav")
    kinds = {s.kind for s in job_fact_signals(review_region("r", "a", "s", permalink, NoiseSettings()))}
    assert "date" in kinds
    # a menu's latest posts, each with its day, state no date of this job
    assert "date" not in {s.kind for s in job_fact_signals(review_region("r", "nav", "s", menu, NoiseSettings()))}


def _other_postings(k, slug, title, text, need):
    others = "".join(f"<li><h4><a href='{ORIGIN}/jobs/{other}/'>{name}</a></h4><div><span>Quang Chau</span> "
                     "<span>7tr - 15tr</span></div></li>" for other, name, *_ in FOUR_JOBS if other != slug)
    listing = f"<div class='related'><h2>Các tin tuyển dụng khác:</h2><ul>{others}</ul></div>" if k != 1 else ""
    return (f"<html><head><title>{title}</title></head><body><header>{SITE_MENU}</header><main><article>"
            f"<h1>{title}</h1><div class='info'><h4>Loại hình</h4><p>Toàn thời gian</p></div><p>{text} You join a "
            f"team of twelve in the north hall.</p><ul><li>{need}</li></ul>{listing}</article></main><footer>"
            "<a href='/privacy/'>Privacy</a></footer></body></html>")


def test_is_other_postings_shown_on_some_pages_go_with_their_heading():
    _result, markdown = learn_four_jobs(_other_postings, ORIGIN)
    assert "Các tin tuyển dụng khác" not in markdown and "7tr - 15tr" not in markdown, markdown
    assert "Toàn thời gian" in markdown and "Experience in purchasing" in markdown, markdown
    assert "employment" in signal_kinds("Tam Zamanlı")


HOUSES = [("Angers", "18 Rue Pelletier 49100 Angers"), ("Bordeaux", "14 place Saint Martial, Bordeaux"),
          ("Lyon", "7 place Saint Irénée, 69005 Lyon"), ("Marseille", "11 rue Fauchier, 13002 Marseille"),
          ("Rennes", "5 rue Marceau, 35000 Rennes"), ("Lille", "82 Rue Pasteur, Marcq-en-Barœul")]


def _houses(k, slug, title, text, need):
    cards = "".join(f"<div class='house-card'><p class='bold'>Maison de {town}</p><p>Contact the couple who run the "
                    f"house</p><p><a href='mailto:{town.lower()}@acme-homes.example'>{town.lower()}@acme-homes."
                    f"example</a><br>{address}<br>06 61 52 96 9{n}</p></div>" for n, (town, address) in
                    enumerate(HOUSES))
    return (f"<html><head><title>{title} | Acme Homes</title></head><body><header>{SITE_MENU}</header><main><h1>"
            f"{title}</h1><p>{text} You join a team of twelve in the north hall.</p><ul><li>{need}</li></ul><p>"
            "Questions? Write to <a href='mailto:jobs@acme-homes.example'>jobs@acme-homes.example</a>.</p></main>"
            f"<div class='houses'>{cards}</div><footer><p>Acme Homes - 3 rue du Refuge 44000 Nantes</p></footer>"
            "</body></html>")


def test_it_a_directory_of_places_each_with_its_own_contact_is_the_sites():
    _result, markdown = learn_four_jobs(_houses, ORIGIN)
    for gone in ("lyon@acme-homes.example", "7 place Saint Irénée", "Maison de Rennes"):
        assert gone not in markdown, markdown
    assert "jobs@acme-homes.example" in markdown and "3 rue du Refuge 44000 Nantes" in markdown, markdown


def test_it_guard_two_offices_are_no_directory():
    from gigflow.noise.learn.directory import directory_entries

    offices = lxml.html.fromstring(
        "<div>" + "".join(f"<div class='office'><p>{town}</p><a href='tel:+33 1 00 00 00 0{n}'>call</a></div>"
                          for n, (town, _address) in enumerate(HOUSES[:2])) + "</div>")
    assert directory_entries(offices) == 0
    houses = lxml.html.fromstring(_houses(0, *FOUR_JOBS[0])).find_class("houses")[0]
    assert directory_entries(houses) == len(HOUSES) and directory_entries(houses[2]) == len(HOUSES)


def test_iu_a_field_label_beside_a_scripts_inputs_is_no_salary():
    from noise_helpers import ReviewRegion
    from gigflow.noise.learn.classifier import job_fact_signals

    html = ("<div class='modal'><h4>Apply Now</h4><div class='form-group'><label>Name</label><input type='text'>"
            "</div><div class='form-group'><label>Current Salary</label><input type='text'></div></div>")
    region = ReviewRegion(id="r", selector="div", signature="s", tag="div", text="Apply Now Name Current Salary",
                          links=(), html=html)
    assert "amount" not in {s.kind for s in job_fact_signals(region)}
    assert "amount" in signal_kinds("Salary\nCompetitive")


def _bilingual(k, slug, title, text, need):
    vietnamese = k % 2 == 0
    menu = ("<nav><a href='/'>Trang chủ</a> <a href='/san-pham/'>Sản phẩm</a> <a href='/tin-tuc/'>Tin tức</a></nav>"
            if vietnamese else "<nav><a href='/en/'>Home</a> <a href='/en/products/'>Our products</a> "
                               "<a href='/en/news/'>Latest news</a></nav>")
    footer = ("<footer><p>Địa chỉ: Lô B, Số 2A, KCN Đồng An, Bình Dương.</p><p>Bản quyền © 2022.Công ty TNHH Acme "
              "Việt Nam.</p></footer>" if vietnamese else
              "<footer><p>Address: Lot B, No. 2A, Dong An Industrial Park, Binh Duong.</p><p>Copyright © 2022 Acme "
              "Vietnam Co., Ltd.</p></footer>")
    return (f"<html lang='{'vi' if vietnamese else 'en-US'}'><head><title>{title}</title></head><body>"
            f"<header>{menu}</header><main><h1>{title}</h1><p>{text} You join a team of twelve in the north hall.</p>"
            f"<ul><li>{need}</li></ul></main>{footer}</body></html>")


def test_iv_a_sites_two_language_versions_each_have_their_template_learned():
    pages = [TrainingPage(url=f"{ORIGIN}/jobs/{slug}/", body=_bilingual(k, slug, title, text, need).encode())
             for k, (slug, title, text, need) in enumerate(FOUR_JOBS)]
    pages += [TrainingPage(url=f"{ORIGIN}/jobs/{slug}-2/", body=_bilingual(k, slug, title + " II", text,
                                                                           need).encode())
              for k, (slug, title, text, need) in enumerate(FOUR_JOBS[:2])]
    noise_filter = _learn(pages[1:])
    markdown = prepare_html(pages[0].body, pages[0].url, noise_filter=noise_filter).markdown
    assert "Sản phẩm" not in markdown, markdown
    assert "Công ty TNHH Acme Việt Nam" in markdown and "Lô B, Số 2A" in markdown, markdown


def test_iw_vietnamese_turkish_and_indonesian_amounts_are_amounts():
    for text in ("Lên tới 25 Triệu", "8tr-10tr", "15.000 TL", "Rp 5.000.000", "5 juta per bulan", "Mức lương:"):
        assert "amount" in signal_kinds(text), text
    assert "amount" not in signal_kinds("2 try again, 3 trees")


def _modal_after_the_page(k, slug, title, text, need):
    fields = "".join(f"<div class='row'><label>{label} *</label><input type='text' name='f{n}'></div>"
                     for n, label in enumerate(("Your name", "Mail address", "Question about")))
    return (f"<html><head><title>{title} | Acme</title></head><body><div id='site-header'></div>"
            f"<section class='hero'><h1>{title}</h1><p>{text}</p></section><section id='job'><h2>Requirements</h2>"
            f"<ul><li>{need}</li></ul><p>You join a team of twelve in the north hall.</p></section>"
            "<div id='site-footer'></div><div id='questionModal' class='modal'><div class='modal-content'><span "
            "class='close'>×</span><h2>Questions about this opening</h2>"
            f"<p>{('Send us your questions.', 'Send us your questions and your files.')[k == 1]}</p>"
            f"<form name='{slug}-question' action='/recruit/{slug}/'>"
            f"<div class='row'><input type='hidden' name='job' value='{title}'></div>{fields}<button type='submit'>"
            "Send</button></form>"
            "</div></div></body></html>")


def test_ix_a_modal_dialog_is_judged_where_the_jobs_region_is_the_whole_body():
    _result, markdown = learn_four_jobs(_modal_after_the_page, ORIGIN)
    assert "Questions about this opening" not in markdown and "Mail address" not in markdown, markdown
    assert "Experience in purchasing" in markdown and "You buy sheet and tube" in markdown, markdown


def _word_export(k, slug, title, text, need):
    # A career page saved from a word processor: its paragraphs hold Office's <o:p> elements, and two postings
    # carry a notice the first lacks, inside one.
    notice = ("<div class='MsoNormal'><o:p><span>Applications for this post are read from 3 May on, in the order "
              "they arrive.</span></o:p></div>") if k in (1, 2) else ""
    return (f"<html><head><title>{title}</title></head><body><header>{SITE_MENU}</header><main><h1>{title}</h1>"
            f"<p class='MsoNormal'><o:p>{text}</o:p></p><ul><li>{need}</li></ul>{notice}</main></body></html>")


def test_guard_word_processor_markup_in_a_notice_is_learned_without_an_error():
    result, markdown = learn_four_jobs(_word_export, ORIGIN)
    assert result.filter is not None and "Experience in purchasing" in markdown, markdown
    assert "Products" not in markdown
