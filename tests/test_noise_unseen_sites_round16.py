"""Round 16 of issue #23 (found on the studied hold-outs' largest gaps).

BA. The site footer's phone lines that add no way to reach the employer. On a one-employer site the footer's phone
    is a contact fact (rounds 9-10). A fax number ("F: …", "Fax …") is not one, and a phone the page already
    states outside the footer (the header's contact, grouped otherwise) only repeats it: a footer line of nothing
    but such numbers and their labels goes, while the footer's address, mailbox and any other phone stay.

BB. A copyright line beside the footer's own legal name. Round 14 (AS) drops the footer's copyright line and office
    where the job's text states the employer's legal name; where the only legal name is a part of the footer itself
    ("<a>Acme LTD</a>" beside "© 2014-2016 Acme"), that trial fails as a whole and the copyright line stayed. The
    copyright line alone is now tried: it goes when every sample still names the owner with a legal form.

Each test fails on the code before round 16 (checked on commit 7b64000; the guard for its fax line).
"""

from __future__ import annotations

from gigflow.noise.learn.footer_phones import is_fax, needless_phone_line, phones_in
from noise_helpers import SITE_MENU, learn_four_jobs


def _learn_and_prepare(make, origin: str = "https://halvard.example", unseen: int = 3) -> str:
    return learn_four_jobs(lambda _k, _slug, *job: make(*job), origin, unseen)[1]


def _letterhead_site(header_phone: str, footer_phone: str):
    def page(title, text, need):
        return (f"<html><head><title>{title} | Halvard</title></head><body>"
                f"<header>{SITE_MENU}<div><p>{header_phone}</p><p>jobs@halvard.example</p></div></header>"
                f"<main><h1>{title}</h1><p>{text}</p><h2>Your profile</h2><ul><li>{need}</li></ul></main>"
                "<footer><div><p>Halvard Stahlbau GmbH<br>Mühlgasse 7<br>83022 Rosenheim</p></div>"
                f"<div><p>T: {footer_phone}<br>F: +49 (0)80 31-24 577-99<br>"
                "M: <a href='mailto:jobs@halvard.example'>jobs@halvard.example</a></p></div>"
                "<div><a href='/imprint/'>Imprint</a> <a href='/privacy/'>Privacy</a></div></footer></body></html>")
    return page


def test_ba_the_footer_fax_and_the_phone_the_header_states_go():
    markdown = _learn_and_prepare(_letterhead_site("+49 (0)8031 24577-0", "+49 (0)80 31-24 577-0"))
    assert "+49 (0)8031 24577-0" in markdown  # the header's contact
    assert "T: +49 (0)80 31-24 577-0" not in markdown  # the same number again
    assert "24 577-99" not in markdown  # the fax
    assert "jobs@halvard.example" in markdown and "Mühlgasse 7" in markdown and "83022 Rosenheim" in markdown
    assert "Imprint" not in markdown and "Steel Buyer" in markdown


def test_ba_guard_a_footer_phone_stated_nowhere_else_stays():
    markdown = _learn_and_prepare(_letterhead_site("+49 (0)8031 24577-0", "+49 (0)80 31-99 100-5"))
    assert "T: +49 (0)80 31-99 100-5" in markdown  # another line: the employer's contact
    assert "24 577-99" not in markdown


def test_ba_what_reads_as_a_fax_or_a_repeated_phone():
    text = "Tel.: +49 30 1234567\nFax: +49 30 1234568\nF: +49 30 1234569"
    starts = [text.index("+49", k) for k in (0, 20, 40)]
    assert [is_fax(text, s) for s in starts] == [False, True, True]
    assert not is_fax("Fon: +49 30 1234567", 5)
    header = frozenset(phones_in("Call us: +49 (0)30 123 45 67"))
    assert needless_phone_line("T: +49 30 1234567", header)  # the same digits, grouped otherwise
    assert needless_phone_line("Telefax 030 / 123 45 99", frozenset())
    assert not needless_phone_line("T: +49 30 7654321", header)  # another number
    assert not needless_phone_line("Fax: 030 1234599 · mail@acme.example", header)  # a mailbox beside it
    assert not needless_phone_line("Call our recruiting team on weekdays at +49 30 1234567", header)  # a sentence
    assert not needless_phone_line("© 2013-2015 Acme", frozenset())  # years, no phone


def _legal_name_site(legal_name_part: str):
    def page(title, text, need):
        return (f"<html><head><title>{title} | Orvik</title></head><body><header>{SITE_MENU}</header>"
                f"<main><h1>{title}</h1><p>{text}</p><h2>Your profile</h2><ul><li>{need}</li></ul>"
                "<p>Orvik is hiring: write to jobs@orvik.example</p></main>"
                "<footer><div><a href='/'>© 2014-2016 Orvik</a></div>"
                f"<div>{legal_name_part}<p>Gdańska 81,</p><p>90-613, Łódź</p></div>"
                "<div><a href='/privacy/'>Privacy</a> <a href='/terms/'>Terms</a></div></footer></body></html>")
    return page


def test_bb_the_copyright_line_goes_beside_the_footers_own_legal_name():
    markdown = _learn_and_prepare(_legal_name_site("<a href='https://orvik.example/'>Orvik LTD</a>"),
                                  "https://careers.orvik.example")
    assert "Orvik LTD" in markdown and "90-613, Łódź" in markdown  # the legal name and the office stay
    assert "© 2014-2016 Orvik" not in markdown
    assert "Privacy" not in markdown and "Steel Buyer" in markdown


def test_bb_guard_without_a_legal_name_the_copyright_line_stays():
    markdown = _learn_and_prepare(_legal_name_site("<p>Orvik Studio</p>"), "https://careers.orvik.example")
    assert "© 2014-2016 Orvik" in markdown
