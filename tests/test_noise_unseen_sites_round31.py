"""Round 31 of issue #23: what the hold-outs first measured in wave 3's fourteenth stop showed, on synthetic pages.

- HA (hold-out 66, a media company's Jekyll site): every posting is followed by the same "Benefits!" section in
  plain divs: sub-headings ("Vacations", "Equipment") and a sentence each ("We'll provide you with a high-end
  laptop …"). The section was kept for its heading, but its sentences, which no signal reads, were judged one by
  one as template statements and went: 16 benefit facts on six pages. What a section headed by a benefit or
  requirement word says is the job's.
- HB (hold-out 66): the footer's only mailbox, contact@ at the domain that is the first word of the owner's name
  ("Holler Technologies" at holler.io), went with the footer's link columns. The owner's mailbox is a contact
  there as it is where the domain spells the whole name.
- HC (hold-out 64, a French software firm): "capacités d'<b>adaptation</b>" was written "d'**adaptation**", which
  reads "d' adaptation" once the marks are stripped (as a plain-text reader, a search index or the facts scorer
  does). Letters glued to emphasised words go inside the marks: "**d'adaptation**", "**multi-tenant**".

- HD (hold-out 70, a dental practice's Dutch career site): the hero beside the title says "Vacature · 24 tot 38 uur ·
  Strijp-S, Eindhoven", the same on every posting, and went as a line with no fact: a range of weekly hours is an
  employment fact ("24 tot 38 uur", "20-30 hours", "32–40 Stunden"), a day's opening hours ("9-17 uur") are not.

- HE (hold-out 65, an Indian software firm's pages): the footer says "© Arvan Technologies Pvt. Ltd. All Rights
  Reserved." and the titles "Arvan Technologies Job Page | Android Developer | 2 years" over an h2 (no h1). The
  holder was cut at "Pvt." (read as a sentence end), so the owner's own job section ("… Job Page") read as a board's
  name, every region the operator's, and half the facts (the job's mailbox, its requirements) went. "Pvt." and "Pty."
  end no name, "Pvt. Ltd." is a legal form, a section's name may add "Page" or "Portal" to its owner's, a page without
  an h1 is titled by its h2, and a title may go on after the heading ("| 2 years").
- HF (hold-out 65, an Indian web agency): "© Copyright 2011 - 2022, Acme Technologies" gave the holder "Copyright".
- HG (the same agency): a "Why should you join Acme" section of cards ("Employee First: our employees work with
  us …") went, card by card: the heading was a benefit to no signal, and the cards, split off the kept section, had
  none. A heading on why to join names what the employer offers, and a section that opens with a heading naming
  job content is kept whole.

- HI (hold-out 74, a Spanish club's postings): the apply button "Aplicar a esta posición" (a Google Form) went as a
  link with no fact: Spanish "aplicar" ("Aplica ahora") is a way to apply.

Each behaviour test fails on the code before round 31 (commit e54fa65).
"""

from __future__ import annotations

import lxml.html
from noise_helpers import learn_four_jobs, signal_kinds

from gigflow.documents.markdown import direct_to_markdown
from gigflow.noise.learn.classifier import owners_mailbox
from gigflow.noise.learn.owner import copyright_holders

ORIGIN = "https://www.acme-tools.example"


def _benefits_section(k, slug, title, text, need):
    return (f"<html><head><title>{title} | Acme</title></head><body><nav role='navigation'><a href='/'>Acme</a> "
            "<a href='/jobs'>Careers</a> <a href='/team'>Our Team</a> <a href='/contact'>Contact Us</a></nav>"
            f"<div class='container'><div class='job'><a href='/jobs'>&larr; Back to all positions</a><h2>{title}</h2>"
            f"<p>{text} You join a team of twelve in the north hall.</p><h3>Requirements</h3><ul><li>{need}</li></ul>"
            "</div></div><div class='white-section'><div class='container'><h3>Benefits!</h3><div class='row'>"
            "<h4>Vacations</h4><p>We encourage taking real off the grid vacations.</p>"
            "<h4>Equipment</h4><p>We'll provide you with a high-end laptop, a second screen and anything else you "
            "might need to do your job.</p><h4>Snacks!</h4><p>We have an ongoing grocery order that everyone can add "
            "to, so there are healthy snacks in the office all week.</p></div></div></div>"
            "<footer><p>© Acme 2015</p></footer></body></html>")


def test_ha_a_section_headed_benefits_keeps_what_it_says():
    _result, markdown = learn_four_jobs(_benefits_section, ORIGIN)
    for sentence in ("We encourage taking real off the grid vacations.",
                     "We'll provide you with a high-end laptop, a second screen",
                     "We have an ongoing grocery order"):
        assert sentence in markdown, markdown
    assert "Our Team" not in markdown


def _first_word_domain(k, slug, title, text, need):
    columns = "".join(f"<div class='col'><h4>{heading}</h4>{links}</div>" for heading, links in (
        ("Contact", "<a href='mailto:contact@acme.example'>contact@acme.example</a><br>"),
        ("Social", "<a href='https://www.instagram.com/acme/'>Instagram</a><br>"
                   "<a href='https://www.linkedin.com/company/acme'>LinkedIn</a><br>"),
        ("Company", "<a href='/careers'>Careers</a><br><a href='/press'>Press</a><br>"
                    "<a href='/community'>Community</a><br>")))
    return (f"<html><head><title>Acme | {title}</title></head><body><div class='menu'><a href='/about'>About</a> "
            f"<a href='/careers'>Careers</a> <a href='/press'>Press</a></div><div class='job'><h2>{title}</h2>"
            f"<p>New York, New York</p><p>{text} You join a team of twelve in the north hall.</p><h3>Responsibilities"
            f"</h3><ul><li>{need}</li></ul></div><div id='footer'><div class='row'>{columns}</div>"
            "<div class='row'><p>© 2019 Acme Technologies, Inc</p></div></div></body></html>")


def test_hb_the_owners_mailbox_at_the_first_word_of_its_name_is_a_contact():
    assert owners_mailbox("Contact contact@acme.example", ("Acme Technologies",)) == "contact@acme.example"
    # a name of one word must be the domain's name or in it, as before; a short first word names no domain
    assert owners_mailbox("contact@acme.example", ("Acmeville",)) == ""
    assert owners_mailbox("contact@abc.example", ("Abc Holdings",)) == ""
    _result, markdown = learn_four_jobs(_first_word_domain, ORIGIN)
    assert "contact@acme.example" in markdown, markdown
    assert "Instagram" not in markdown


def test_hc_letters_glued_to_emphasis_go_inside_the_marks():
    def markdown(html: str) -> str:
        return direct_to_markdown(lxml.html.fromstring(f"<div>{html}</div>")).strip()

    assert markdown("<p>capacités d'<b>adaptation</b> pour</p>") == "capacités **d'adaptation** pour"
    assert markdown("<p>a <b>multi</b>-tenant app.</p>") == "a **multi-tenant** app."
    assert markdown("<p><b>Location</b>: Berlin</p>") == "**Location:** Berlin"
    # a line break in the source before the marks is a space, no glue
    assert markdown("<p>experience with\n<strong>Go</strong></p>") == "experience with **Go**"
    # a link's Markdown before the marks is no word to take in
    assert markdown("<p><a href='https://a.example/x'>link</a><b>bold</b> x</p>") == \
        "[link](https://a.example/x)**bold** x"


def test_hd_a_range_of_weekly_hours_is_an_employment_fact():
    for line in ("Vacature · 24 tot 38 uur · Strijp-S", "20-30 hours a week", "32–40 Stunden"):
        assert "employment" in signal_kinds(line), line
    for line in ("Bereikbaar ma-vr 9-17 uur", "We reply within 24 hours", "© 2013-2015 Acme"):
        assert "employment" not in signal_kinds(line), line


def _job_page_section(k, slug, title, text, need):
    sep = " | Job Page" if k == 0 else " Job Page"  # one page splits the section's name, as the site's did
    return (f"<html><head><title>Acme Technologies{sep} | {title} | 2 years</title></head><body><div class='nav'>"
            "<a href='/'>Home</a> <a href='/about'>About</a> <a href='/careers'>Careers</a></div><div class='job'>"
            f"<h2>{title}</h2><h3>Full time, Pune</h3><div class='desc'><h2>Job Description</h2><p>{text} We are "
            "looking for programmers who can understand what our clients want.</p><p>Email: <a "
            "href='mailto:careers@acme.example'>careers@acme.example</a></p></div><div class='skills'><h2>Desired "
            "Skills</h2><ul><li>Are you motivated enough to work on a project independently?</li><li>Work life "
            f"balance culture is strongly valued.</li></ul><ol><li>{need}</li></ol></div></div><footer><p>© Acme "
            "Technologies Pvt. Ltd. All Rights Reserved.</p></footer></body></html>")


def test_he_a_private_limited_holder_is_read_whole_and_its_job_page_is_no_board():
    assert [h.strip() for h in copyright_holders(lxml.html.fromstring(
        "<footer><p>© Acme Technologies Pvt. Ltd. All Rights Reserved.</p></footer>"))] == ["Acme Technologies Pvt. Ltd"]
    _result, markdown = learn_four_jobs(_job_page_section, ORIGIN)
    for fact in ("careers@acme.example", "Are you motivated enough", "Work life balance culture"):
        assert fact in markdown, markdown
    assert "About" not in markdown


def test_hf_a_copyright_word_after_the_sign_is_no_holder():
    holders = copyright_holders(lxml.html.fromstring(
        "<footer><p>© Copyright 2011 - 2022, Acme Technologies</p></footer>"))
    assert [h.strip() for h in holders] == ["Acme Technologies"]


def _why_join(k, slug, title, text, need):
    cards = "".join(f"<div class='card'><h5>{name}</h5><p>{line}</p></div>" for name, line in (
        ("Employee First", "Our employees work with us not just to get paid but to be inspired by our vision"),
        ("Open to Ideas", "We give each of our people a chance to be heard and to shape how we work")))
    return (f"<html><head><title>{title} | Acme</title></head><body><div class='menu'><a href='/'>Home</a> "
            f"<a href='/services'>Services</a> <a href='/careers'>Careers</a></div><section><div class='job'>"
            f"<h1>{title}</h1><p>{text} You join a team of twelve in the north hall.</p><ul><li>{need}</li></ul>"
            f"</div><div class='why'><h2>Why should you join Acme</h2><p>Our approach keeps us growing.</p>{cards}"
            "</div></section><footer><p>© 2022 Acme</p></footer></body></html>")


def test_hg_a_section_on_why_to_join_is_kept_whole():
    _result, markdown = learn_four_jobs(_why_join, ORIGIN)
    for fact in ("Our employees work with us not just to get paid", "We give each of our people a chance"):
        assert fact in markdown, markdown
    assert "Services" not in markdown



def test_hi_spanish_aplicar_is_a_way_to_apply():
    form = "https://docs.google.com/forms/d/e/x/viewform"
    assert "apply" in signal_kinds("Aplicar a esta posición", [("Aplicar a esta posición", form)])
    assert "apply" in signal_kinds("Aplica ahora", [("Aplica ahora", form)])
