"""Round 28 of issue #23: what the hold-outs measured at the end of wave 3's tenth stop showed, on synthetic pages.

- GJ (hold-out 33, a board relaying Telegram channels): each posting's only way to apply is a button to its post in
  the channel (``tg://resolve?domain=qa_jobs&post=98657``). Signatures reduce a link to its host and first path
  segment, so the button looked the same on every sample and went, and stored Markdown refused the scheme: five
  apply links lost. A phone or messenger link is a contact, kept whole like a mail link; a share link to a
  messenger (``whatsapp://send?text=<this page>``) is still reduced, and both schemes are allowed in stored
  Markdown (``gigflow.documents.safe_text.CONTACT_SCHEMES``).

Each behaviour test fails on the code before round 28 (commit 679f1a6); the guards pass on both.
"""

from __future__ import annotations

from noise_helpers import SITE_MENU, duties, learn_four_jobs

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
