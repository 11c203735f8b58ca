"""Round 28 of issue #23: what the hold-outs measured at the end of wave 3's tenth stop showed, on synthetic pages.

- GJ (hold-out 33, a board relaying Telegram channels): each posting's only way to apply is a button to its post in
  the channel (``tg://resolve?domain=qa_jobs&post=98657``). Signatures reduce a link to its host and first path
  segment, so the button looked the same on every sample and went, and stored Markdown refused the scheme: five
  apply links lost. A phone or messenger link is a contact, kept whole like a mail link; a share link to a
  messenger (``whatsapp://send?text=<this page>``) is still reduced, and both schemes are allowed in stored
  Markdown (``gigflow.safety.guard.CONTACT_SCHEMES``).

- GK (hold-out 38, a Japanese publisher's career site): the button under each posting, "この職種に応募する" (apply
  for this position), went: the apply word was looked for between word boundaries, and Japanese has none between
  "に" and "応募". Five apply links lost. Words of scripts written without spaces are now found anywhere, and the
  apply words of more languages count (Hindi, Chinese, Russian, Polish, Swedish, Danish, Czech).
- GL (hold-out 38, a Japanese agency): the footer's "〒037-0041" and "青森県五所川原市田町121-2" (postal mark and
  code, prefecture and city) showed no place and went when the footer was split: the posting's only address lost
  on every page. An East Asian postal code or prefecture-and-city (and a Korean city and district) is a place.
- GM (hold-out 38, a graduate recruiting site): a footer menu laid out as ``<dt>Company</dt><dd><ul><li><a>``
  read as label/value rows, because the line breaks between its items counted as words of the values; the menu
  stayed on every page. Values are now compared without whitespace.
- GN (hold-out 39, a board rewriting government notices): each posting's apply button ("अभी आवेदन करें →", apply
  now, in Hindi) links to the recruiting body's own site. Its text is the same on every page, so the button
  counted as one template region with varying links, and went: an apply link lost. Where the text is alike but
  the links lead to other sites (or other mail, phone or messenger addresses), each page's region is its own.

Each behaviour test fails on the code before round 28 (commit 679f1a6); the guards pass on both.
"""

from __future__ import annotations

from noise_helpers import SITE_MENU, duties, learn_four_jobs

from gigflow.noise.learn.classifier import JOB_FACT_SIGNALS
from gigflow.noise.signature import link_target

ORIGIN = "https://relay.example"


def _relayed(k, slug, title, text, need):
    return (f"<html><head><title>{title}</title></head><body><header>{SITE_MENU}</header>"
            f"<main><article><h1>{title}</h1><p>{text} {duties(title)}</p><ul><li>{need}</li></ul></article>"
            f"<aside><div class='actions'><a class='btn' href='tg://resolve?domain=factory_jobs&amp;post={k}07'>"
            f"Open in the channel</a></div></aside></main>"
            "<footer><a href='/about/'>About the relay</a> <a href='/rss/'>RSS</a></footer></body></html>")


def test_gj_a_postings_messenger_link_stays():
    _result, markdown = learn_four_jobs(_relayed, ORIGIN)
    assert "[Open in the channel](tg://resolve?domain=factory_jobs&post=307)" in markdown, markdown
    assert "About the relay" not in markdown


def test_gj_contact_links_count_whole():
    assert link_target("tg://resolve?domain=qa_jobs&post=98657") == "tg://resolve?domain=qa_jobs&post=98657"
    assert link_target("whatsapp://send?phone=5511999") == "whatsapp://send?phone=5511999"


def test_gj_guard_share_links_stay_reduced():
    assert link_target("whatsapp://send?text=https://relay.example/jobs/1") == "whatsapp://send/"
    assert link_target("tg://msg_url?url=https://relay.example/jobs/1") == "tg://msg_url/"
    assert link_target("https://t.me/share/url?url=https://relay.example/jobs/1") == "https://t.me/share"


# --- GK, GL, GM ------------------------------------------------------------------------------------------------

def _japanese_site(entry: str, footer: str):
    def make(k, slug, title, text, need):
        return (f"<html><head><title>{title}</title></head><body><header>{SITE_MENU}</header>"
                f"<main><h1>{title}</h1><table><tr><th>仕事内容</th><td>{text} {duties(title)}</td></tr>"
                f"<tr><th>応募資格</th><td>{need}</td></tr></table>"
                f"<div class='entry'><a class='btn' href='https://ats.example/acme/entry.phtml?job_code={k}1'>"
                f"{entry}</a></div></main>{footer}</body></html>")
    return make


JAPANESE_FOOTER = ("<footer><ul class='menu'><li><a href='/company/'>会社概要</a></li><li><a href='/works/'>制作実績</a>"
                   "</li></ul><ul class='address'><li>〒037-0041</li><li>青森県五所川原市田町121-2</li>"
                   "<li>TEL：0173-26-7071</li></ul></footer>")


def test_gk_an_apply_button_in_japanese_stays():
    _result, markdown = learn_four_jobs(_japanese_site("この職種に応募する", "<footer>©ACME</footer>"), ORIGIN)
    assert "この職種に応募する" in markdown and "job_code=31" in markdown, markdown


def test_gk_apply_words_of_more_languages():
    apply = JOB_FACT_SIGNALS["apply"]
    for words in ("この職種に応募する", "अभी आवेदन करें", "立即申请", "Откликнуться", "Aplikuj teraz", "Ansök nu"):
        assert apply.search(words), words
    assert not apply.search("Мои отклики") and not apply.search("京都大学")  # an account's list of responses


def test_gl_an_east_asian_address_in_the_footer_stays():
    _result, markdown = learn_four_jobs(_japanese_site("この職種に応募する", JAPANESE_FOOTER), ORIGIN)
    assert "〒037-0041" in markdown and "青森県五所川原市田町121-2" in markdown, markdown


def test_gl_east_asian_places():
    place = JOB_FACT_SIGNALS["location"]
    for text in ("〒150-0002", "東京都新宿区西新宿6丁目", "广东省深圳市南山区", "서울특별시 강남구 테헤란로"):
        assert place.search(text), text
    assert not place.search("都市開発の仕事") and not place.search("県立病院")


def _footer_menu_in_a_list(k, slug, title, text, need):
    groups = "".join(f"<dl><dt>{label}</dt><dd>\n <ul>\n  <li><a href='/{label.lower()}/a/'>{label} overview</a></li>"
                     f"\n  <li><a href=''>{label} in numbers</a></li>\n </ul>\n</dd></dl>"
                     for label in ("Company", "People", "Recruit"))
    return (f"<html><head><title>{title}</title></head><body><header>{SITE_MENU}</header><main><h1>{title}</h1>"
            f"<p>{text} {duties(title)}</p><ul><li>{need}</li></ul></main>"
            f"<footer><nav class='sitemap'>{groups}</nav><p>© Acme Works</p></footer></body></html>")


def test_gm_a_footer_menu_of_link_lists_goes():
    _result, markdown = learn_four_jobs(_footer_menu_in_a_list, ORIGIN)
    assert "People" not in markdown and "Recruit" not in markdown, markdown
    assert "Experience in purchasing" in markdown


# --- GN -------------------------------------------------------------------------------------------------------

BODIES = ["rbi.example.org", "post.example.gov", "navy.example.mil", "rail.example.gov"]


def _rewritten_notice(k, slug, title, text, need):
    return (f"<html><head><title>{title}</title></head><body><header>{SITE_MENU}</header><main><article>"
            f"<header><h1>{title}</h1><div class='actions'><a class='btn' href='https://{BODIES[k]}/'>"
            f"Abhi karein →</a></div></header><p>{text} {duties(title)}</p><ul><li>{need}</li></ul></article></main>"
            "<footer><a href='/about/'>About the portal</a></footer></body></html>")


def test_gn_a_button_to_each_postings_own_site_stays():
    _result, markdown = learn_four_jobs(_rewritten_notice, ORIGIN)
    assert "https://rail.example.gov/" in markdown, markdown
    assert "About the portal" not in markdown


# --- GO -------------------------------------------------------------------------------------------------------

def _owner_only_in_template(k, slug, title, text, need):
    # The postings never name their employer; the header's logo says "Acme Works", the footer, a menu of links,
    # ends with "© 2025 Acme Works Ltd" and the office (hold-out 46's consultancy).
    links = "".join(f"<li><a href='/{w.lower()}/'>{w} services</a></li>" for w in ("Audit", "Advice", "Training",
                                                                                   "Writing", "Review"))
    return (f"<html><head><title>{title} | Acme Works</title></head><body><header><a href='/'>Acme Works</a>"
            f"{SITE_MENU}</header><main><h1>{title}</h1><p>{text} {duties(title)}</p><ul><li>{need}</li></ul></main>"
            f"<footer><ul>{links}</ul><p>© 2025 Acme Works Ltd</p></footer></body></html>")


def test_go_the_owners_name_in_a_footer_menu_stays_where_only_template_states_it():
    _result, markdown = learn_four_jobs(_owner_only_in_template, ORIGIN)
    assert "Acme Works" in markdown, markdown
    assert "Training services" not in markdown
