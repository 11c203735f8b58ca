"""Template detection across samples (the site-style-tree idea) and the parts of a page that are job content.

The samples of one configuration are walked together from <body> down, pairing each element with the element
at the same place on every other sample. A subtree identical on every sample is template; one that differs is
where the job lives. This finds candidates in table and div layouts that carry no header/nav/footer markup, and
it tells the learner where the content is, so that nothing there is removed whole:

- the *content root* is the deepest element holding most of the text that varies between samples;
- the *main heading* is the page's first <h1> that varies (without one, the first <h2>/<h3> whose text
  changes: an <h1> the same on every sample is the site's name);
- inside the content root only constant parts that are not headings, field labels or label/value rows may go;
- a constant element whose same-tag siblings vary (a row of a details table, an item of a list) is content,
  unless the varying sibling is the content's own container (a layout row beside the body).

Pure functions over parsed trees; learning only (preparation never imports this module).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

from lxml import etree

from gigflow.noise.learn.candidates import in_sentence, in_site_footer, is_breadcrumb, is_landmark, is_named_landmark
from gigflow.noise.learn.classifier import JOB_FACT_SIGNALS, names_job_section
from gigflow.noise.learn.forms import heading_over_form
from gigflow.noise.signature import MAP_LINK, NO_REFERENCES, SelfReferences, link_folder, stable_attributes

HEADING_TAGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
ROW_TAGS = frozenset({"tr", "li", "dt", "dd", "div", "p", "section", "span"})
# Share of the varying text the content root must hold.
CONTENT_SHARE = 0.5
# Like siblings of the content's section holding this share of the varying text make the run the content.
LIKE_SECTIONS_SHARE = 0.2
# A field label is short: "Employment type:", "Benefits", "Standort".
LABEL_MAX_CHARS = 40
LABEL_MAX_WORDS = 5
_LABEL_VALUE = re.compile(r"^[^:：\n]{1,40}[:：]\s*\S")
# A paragraph of running text the same on every sample (constant_prose): so many words at least, in sentences.
PROSE_MIN_WORDS = 25
PROSE_TAGS = frozenset({"p", "div", "section", "blockquote"})
# A section of the page (site_section): a block holding a heading and at least so many blocks.
SECTION_TAGS = frozenset({"div", "section", "article", "aside"})
SECTION_BLOCKS = frozenset({"p", "div", "li", "figure", "img", "blockquote", "table"})
SECTION_MIN_BLOCKS = 8
# A teaser card: a heading, a line or two, a link to the page it promotes.
TEASER_MAX_WORDS = 30
TEASER_NOT = frozenset({"ul", "ol", "dl", "table", "form", "input", "select", "textarea"})
# A link to a mailbox, a phone or a messenger: contact, not another page.
CONTACT_HREF = re.compile(r"\s*(?:mailto|tel|callto|sms):", re.I)
NOT_PROSE_TAGS = frozenset({"ul", "ol", "li", "dl", "dt", "dd", "table", "tr", "form", "input", "select", "textarea",
                            "button", "label"})
_SENTENCE_END = re.compile(r"[.!?。](?:\s|$)")
# A paragraph that opens by naming its subject: "Acme Co is a …", "Widgetry is a …", "Foo Labs was founded …".
_LEAD_NAME = re.compile(r"^(?!(?:We|They|It|This|That|There|These|Those|He|She|You|Here|What|Who)\s)((?:[A-Z0-9][\w&.'’-]*\s+){0,3}?[A-Z][\w&.'’-]*)\s+(?:is|are|was|has been|were)\b")


def _norm(text: str | None) -> str:
    return " ".join(text.split()) if text else ""


def subtree_hashes(root, refs: SelfReferences = NO_REFERENCES) -> dict:
    """A Merkle hash per element over tag, stable attributes, text and children (attributes as in region
    signatures: per-build and state attributes ignored, the page's self-references normalised): two elements
    with one hash are identical subtrees. One pass, linear in the page."""
    hashes: dict = {}
    for _event, el in etree.iterwalk(root, events=("end",)):
        if not isinstance(el.tag, str):
            continue
        digest = hashlib.blake2b(digest_size=12)
        attrs = stable_attributes(el, refs)
        digest.update(f"<{el.tag}{attrs}>{_norm(el.text)}".encode())
        for child in el:
            if isinstance(child.tag, str):
                digest.update(hashes[child])
            digest.update(_norm(child.tail).encode() + b"\x00")
        hashes[el] = digest.digest()
    return hashes


def _own_key(el) -> tuple:
    return el.tag, (el.get("role") or "").strip(), _norm(el.get("aria-label"))


def _children_by_key(el) -> dict:
    groups: dict = {}
    for child in el:
        if isinstance(child.tag, str):
            groups.setdefault(_own_key(child), []).append(child)
    return groups


@dataclass
class SiteTemplate:
    """What the samples share, seen from the first sample."""

    constant: set = field(default_factory=set)  # page-0 elements identical (and at the same place) on every sample
    varying: set = field(default_factory=set)  # page-0 elements that differ or have no counterpart somewhere
    counterparts: dict = field(default_factory=dict)  # page-0 element -> its element on each other sample
    candidates: list = field(default_factory=list)  # outermost constant subtrees, main heading excluded
    content_root: object = None
    main_heading: object = None
    _varying_rows: dict = field(default_factory=dict)  # (parent, tag, details) -> up to two varying rows of that tag
    # The samples name different employers (a job board): a block identical on every sample, headings and text
    # included, is the operator's (a newsletter call, a disclaimer), not a section of any one job.
    board: bool = False
    shared: set = field(default_factory=set)  # blocks some samples lack, the same on two or more (a notice)
    operator: set = field(default_factory=set)  # on a board: blocks pages of different employers share (CB)

    def candidate_sets(self, n_pages: int) -> list[set]:
        """The structural candidates on each sample (page 0 first), for the learner's candidate check."""
        sets = [set(self.candidates)] + [set() for _ in range(n_pages - 1)]
        for el in self.candidates:
            for k, other in enumerate(self.counterparts.get(el, ()), start=1):
                sets[k].add(other)
        return sets

    # -- what must stay -------------------------------------------------------------------------------------
    def job_region(self):
        """The job's own container: the content root and the main heading together (their lowest common
        ancestor), so the facts beside the heading (location, employment type) count as content too."""
        if self.content_root is None or self.main_heading is None:
            return self.content_root
        heading_line = {self.main_heading, *self.main_heading.iterancestors()}
        for node in (self.content_root, *self.content_root.iterancestors()):
            if node in heading_line:
                return node
        return self.content_root

    def holds_content(self, el) -> str:
        """Why ``el`` may not be removed whole (its parts may be tried), or ''."""
        if self.main_heading is not None and (el is self.main_heading or _contains(el, self.main_heading)):
            return "holds the page's main heading"
        if self.content_root is not None and (el is self.content_root or _contains(el, self.content_root)):
            return "holds most of the text that varies between samples"
        return ""

    def is_content(self, el) -> str:
        """Why ``el`` is job content and stays with its parts, or ''.

        A landmark (a header, footer, nav or aside by tag or ARIA role) is never job content by position: when
        the page's main container also holds the footer, the footer is still the site's, and the classifier
        judges its text like any other candidate's."""
        if self.main_heading is not None and _contains(self.main_heading, el) and self._words_differ(el):
            # The title in a link to the page itself ("<h1><a href=permalink>Welder</a></h1>"): signatures read
            # the page's own address and heading as one, so the link looks the same on every sample (GC).
            return "the page's main heading's own words (its title)"
        if (el in self.varying and (is_sidebar(el) or self._in_sidebar(el)) and self._varies_only_in_digits(el)
                and _DATE_OR_AMOUNT.search(" ".join(el.itertext()))):
            # Signatures count digits as one, so a sidebar whose only change is this job's posting date or pay
            # would be learned as template (and, on a board, judged furniture).
            return "a sidebar whose numbers are this job's (dates, amounts)"
        if is_landmark(el) or any(is_named_landmark(node) and node in self.constant
                                  for node in (el, *el.iterancestors())):
            return ""  # a footer by its class, the same on every sample, is the site's too, and so are its parts
        if any(is_breadcrumb(node) for node in (el, *el.iterancestors())):
            return ""  # navigation, though its current item names the page (and so differs from page to page)
        if _wraps_landmarks_only(el):
            # A wrapper around the site's nav (a fixed top bar holding the <nav>) is the nav's: its logo's <h1>
            # is the site's heading, not one inside the job content.
            return ""
        if in_site_landmark(el, self.content_root):
            # The site's header, footer or nav differing between samples (an older footer on one page, a phone
            # added on others) is still the site's: its parts are judged, not kept as the job's text by position.
            return ""
        if any(is_modal(node) for node in (el, *el.iterancestors())):
            # A modal dialog (an application form's pop-up, a profile's overlay; its hidden fields may name this
            # job) is shown over the page by a control and judged like one, though the job's region is guessed as
            # wide as <body>. One holding the page's main heading or most of its varying text is never removed
            # whole (holds_content).
            return ""
        if self.board and not is_label_value_row(el) and not is_field_label(el) and (
                el in self.constant and el.tag not in ("tr", "dt", "dd") or el in self.operator) and not (
                states_a_fact(el) and self._row_with_varying_siblings(el)):
            # The same block beside every employer's job (or pages of different employers share, in one of its
            # versions) is the board's own; a row among this job's varying details that states a fact ("This
            # job is 100% time." above its deadline and place) is the job's, the same for many jobs.
            return ""
        if self._plain_list_item(el) and self._row_with_varying_siblings(el):
            # A list of plain text whose other items vary is this job's (its requirements), in a sidebar too:
            # an item the site's jobs share is still one of them.
            return "an item of a plain-text list whose other items vary (this job's list)"
        if self._in_sidebar(el):
            # A sidebar of label/value rows ("Job Details") beside the job: only what is this job's stays. Its
            # parts that vary are tried on their own (and stay: they differ between samples); a constant heading
            # and a constant row ("Level: Mid", "Source: Indeed") are the site's and go to the classifier, which
            # keeps any that states a fact; a constant row that names the employer stays.
            if is_details_row(el):
                if el not in self.constant:
                    return "a details row with this job's value"
                if states_a_fact(el):  # a value in digits (a salary, a date) reads the same with digits normalised
                    return "a details row stating a fact"
                return ""
            if el not in self.constant:
                # Its parts are tried; but a part that differs only in its numbers would be learned as template
                # (signatures count digits as one): "Posted 3 May", "$120K" are this job's.
                return "text differing only in its numbers (this job's dates or amounts)" \
                    if self._varies_only_in_digits(el) else ""
            if is_heading(el):
                return ""
        if self._row_with_varying_siblings(el):
            return "a constant row whose sibling rows vary (a details table or list)"
        region = self.job_region()
        inside = region is not None and _contains(region, el)
        if not inside:
            return ""
        if any(other_jobs_list(node) for node in (el, *el.iterancestors())
               if node is region or _contains(region, node)):
            # "More openings" with a card per job (its link and a teaser): other pages' words, not this job's,
            # though the listing sits in the job's container; its heading names the listing.
            return ""
        if any(node in self.constant and link_cards(node) for node in (el, *el.iterancestors())
               if node is region or _contains(region, node)):
            # The same cards on every sample, each wholly one link ("Join us on Slack", "Follow us on Twitter"):
            # their headings name other pages, and the heading above them names the cards.
            return ""
        if _holds_a_sidebar(el):
            # A column of the job's layout holding a sidebar or a nav ("Job Overview" beside "Share this job"):
            # its parts are judged one by one, so the widget beside the job's details is not kept by position.
            return ""
        if el in self.constant and heading_over_form(el):
            # An application form under its heading, the same on every sample: a control (CC), judged.
            return ""
        if is_share_bar(el):
            return ""  # share buttons under their "Share:" heading: a control, judged
        if self.site_section(el):
            # A whole section under its own heading, the same on every sample, beside the job's varying text and
            # apart from its title ("Our Team", "Feel the atmosphere" with their photos), where the job's region
            # is guessed as wide as the page: the site's, judged (the classifier keeps one stating a fact).
            return ""
        if self.teaser(el):
            # A card under its own heading leading to another page ("Primolegno: a project for children. Find out
            # more"), the same on every sample beside the job's text: the site's promotion, judged (IZ).
            return ""
        if is_heading(el) or any(is_heading(d) for d in el.iterdescendants()):
            return "a heading inside the job content"
        if _value_of_a_label(el):
            # "Questions: info@acme.example" in the job's details list: the label stays as job content, so its
            # value does too, though it is only a link (a general mailbox reads as no fact on its own).
            return "the value of a field label inside the job content"
        if is_all_links(el):
            return ""  # share bars, tag links, back links: template even here
        if is_label_value_row(el):
            return "a label/value row inside the job content"
        if is_field_label(el):
            return "a field label inside the job content"
        if self.constant_prose(el):
            # The same paragraph of running text on every sample (a company's "about us", an equal-opportunity
            # statement): the site's, though inside the job's text. The classifier keeps one stating a fact; a
            # heading above it ("About Acme") is a heading inside the job content and stays.
            return ""
        if not is_link_block(el) and not (el in self.shared and not _contains(self.content_root, el)):
            return "text inside the job content (only links, buttons and empty parts may go there)"
        return ""

    def _constant_block_apart(self, el) -> bool:
        """``el`` is a block the same on every sample, outside the content root and apart from the main heading."""
        if el not in self.constant or self.content_root is None or el.tag not in SECTION_TAGS:
            return False
        if _contains(self.content_root, el) or _contains(el, self.content_root) or el is self.content_root:
            return False
        return self.main_heading is None or not (el is self.main_heading or _contains(el, self.main_heading))

    def site_section(self, el) -> bool:
        """``el`` is a constant section with a heading of its own and SECTION_MIN_BLOCKS blocks at least, outside
        the content root and apart from the main heading."""
        if not self._constant_block_apart(el):
            return False
        blocks = 0
        heading = False
        for node in el.iterdescendants(etree.Element):
            heading = heading or is_heading(node)
            blocks += node.tag in SECTION_BLOCKS
            if heading and blocks >= SECTION_MIN_BLOCKS:
                return True
        return False

    def teaser(self, el) -> bool:
        """``el`` is a constant block outside the content root and apart from the main heading: a heading, at most
        TEASER_MAX_WORDS words besides, and a link to another page (not a mailbox, a phone or the job's application); no
        list, table or form."""
        if not self._constant_block_apart(el):
            return False
        if any(node.tag in TEASER_NOT for node in el.iter(etree.Element)):
            return False
        if not any(is_heading(node) for node in el.iter(etree.Element)):
            return False
        links = [a for a in el.iter("a") if (a.get("href") or "").strip() and not CONTACT_HREF.match(a.get("href"))]
        if not links or any(JOB_FACT_SIGNALS["apply"].search(" ".join(a.itertext())) for a in links):
            return False  # no link, or the job's apply band ("Interested? Apply for this position"), not a promotion
        return _words_beside_links_and_headings(el, TEASER_MAX_WORDS) <= TEASER_MAX_WORDS

    def constant_prose(self, el) -> bool:
        """A block of running text identical on every sample: at least PROSE_MIN_WORDS words in sentences, no
        list, table, form or heading in it (a shared requirement is a list item; a details row has a label)."""
        if el not in self.constant or el.tag not in PROSE_TAGS:
            return False
        if any(isinstance(d.tag, str) and (d.tag in NOT_PROSE_TAGS or is_heading(d)) for d in el.iter()):
            return False
        text = _norm(el.text_content())
        if len(text.split()) < PROSE_MIN_WORDS or not _SENTENCE_END.search(text):
            return False
        # "Acme is a well-funded, Madison-based developer of …": it names the employer. It goes only where the
        # job's region states that name again in what stays (a heading "About Acme", the job's own text).
        lead = _LEAD_NAME.match(text)
        return lead is None or self._stated_in_job_region(lead.group(1), el)

    def _stated_in_job_region(self, name: str, block) -> bool:
        region = self.job_region()
        if region is None:
            return False
        wanted = name.casefold()
        for node in region.iter(etree.Element):
            if node is block or _contains(block, node):
                continue
            if is_heading(node) and wanted in _norm(node.text_content()).casefold():
                return True
            if node in self.varying and wanted in _norm(f"{node.text or ''} {node.tail or ''}").casefold():
                return True
        return False

    def _words_differ(self, el) -> bool:
        """Whether ``el``'s text differs on some sample (or it has no counterpart there)."""
        others = self.counterparts.get(el)
        mine = _norm(el.text_content())
        return not others or any(other is None or _norm(other.text_content()) != mine for other in others)

    def _varies_only_in_digits(self, el) -> bool:
        others = self.counterparts.get(el)
        if not others:
            return False
        mine = _digits_as_one(el)
        return all(other is not None and _digits_as_one(other) == mine for other in others)

    def _in_sidebar(self, el) -> bool:
        """Inside an aside (by tag or role) beside the job's heading and text, not holding them."""
        if self.holds_content(el):
            return False
        for node in el.iterancestors():
            if is_sidebar(node):
                return not self.holds_content(node)
        return False

    @staticmethod
    def _plain_list_item(el) -> bool:
        """An item of a list without a link in it (no menu): a list of the job's requirements, tasks, benefits."""
        parent = el.getparent()
        return el.tag == "li" and parent is not None and parent.tag in ("ul", "ol") and parent.find(".//a") is None

    def _row_with_varying_siblings(self, el) -> bool:
        parent = el.getparent()
        if parent is None or el.tag not in ROW_TAGS:
            return False
        if el.tag not in ("tr", "dt", "dd") and (el.find(".//form") is not None or any(
                is_heading(d) for d in el.iterdescendants(etree.Element))):
            return False  # a section under its own heading, or a form (a job alert's sign-up): no row of details
        # Table rows and definition terms are rows; other blocks only when they pair a label with a value, or
        # hold no link inside the content (a list of menu links with one changing entry is not a details table).
        region = self.job_region()
        # A list of plain text (no link in any item) is no menu: its varying items are this job's (requirements),
        # and a constant item among them is a requirement the site's jobs share, wherever the list stands.
        # Outside the job's region, a plain row among varying label/value rows ("Location: Remote") is one of
        # this job's details, though the details stand above the region (beside a title in no heading).
        plain_row = el.tag not in ("tr", "dt", "dd") and not is_label_value_row(el)
        if plain_row and not (el.find(".//a") is None and (region is not None and _contains(region, el)
                                                            or self._plain_list_item(el))):
            return el.find(".//a") is None and any(row is not el for row in self._varying_rows_of(
                parent, el.tag, details=True))
        return any(row is not el for row in self._varying_rows_of(parent, el.tag))

    def _varying_rows_of(self, parent, tag, details: bool = False) -> list:
        """Up to two rows of ``tag`` under ``parent`` that vary between samples (``details``: that pair a label
        with a value, a details list's rows)."""
        key = (parent, tag, details)
        if key not in self._varying_rows:  # once per parent and tag: a list of thousands of rows stays linear
            # A varying sibling that holds the content (or the main heading) is the body beside a layout row.
            rows = (sib for sib in parent
                    if sib.tag == tag and sib in self.varying and not self.holds_content(sib)
                    and (not details or is_label_value_row(sib)))
            self._varying_rows[key] = [row for row, _ in zip(rows, range(2))]  # two are enough to know
        return self._varying_rows[key]


# A details row whose label names the employer: on a career site of one employer its value is the same on every
# page and still the job's employer.
_EMPLOYER_FIELD = re.compile(r"\b(company|employer|organi[sz]ation|hiring|firma|unternehmen|arbeitgeber|"
                             r"entreprise|employeur|werkgever|bedrijf|organisatie|yritys|työnantaja|företag|"
                             r"arbetsgivare|empresa|empleador|azienda|zamestnávateľ|회사|会社|企業)\b", re.I)


def is_sidebar(el) -> bool:
    return el.tag == "aside" or (el.get("role") or "").strip().lower() == "complementary"


_DATE_OR_AMOUNT = re.compile("|".join(f"(?:{JOB_FACT_SIGNALS[kind].pattern})" for kind in ("date", "amount")), re.I)


def _digits_as_one(el) -> str:
    return re.sub(r"\d+", "0", _norm(" ".join(el.itertext())))


def label_and_value(el):
    """The two parts of a row that pairs a label with its value, through an icon without words and a single
    wrapper (``<li><i class="icon"/><div><div>Level</div><div>Mid</div></div></li>``), or None."""
    node = el
    for _depth in range(4):  # a few wrappers at most: deeper nesting is no row
        kids = [c for c in node if isinstance(c.tag, str) and _norm(c.text_content())]
        if len(kids) == 2:
            return tuple(kids)
        if len(kids) != 1:
            return None
        node = kids[0]
    return None


def is_details_row(el) -> bool:
    """A label/value row, also two bare parts: <span>Level</span><span>Mid</span> (beside an icon, in a wrapper)."""
    if is_label_value_row(el):
        return True
    parts = label_and_value(el)
    return (parts is not None and el.find(".//a") is None and is_field_label(parts[0])
            and bool(_norm(parts[1].text_content())))


def states_a_fact(el) -> bool:
    """Digits, a job-fact signal (amount, date, place, employment type ...) or a label naming the employer
    ("Company", not "Listed via: Company site")."""
    text = _norm(" ".join(el.itertext()))
    parts = label_and_value(el)
    label = _norm(parts[0].text_content()) if parts else text.split(":", 1)[0]
    if any(ch.isdigit() for ch in text) or _EMPLOYER_FIELD.search(label[:LABEL_MAX_CHARS]):
        return True
    return any(pattern.search(text) for kind, pattern in JOB_FACT_SIGNALS.items() if kind != "label")


def _contains(ancestor, el) -> bool:
    return any(node is ancestor for node in el.iterancestors())


def is_heading(el) -> bool:
    return el.tag in HEADING_TAGS or (el.get("role") or "").strip().lower() == "heading"


def _link_words(a) -> str:
    """What a link says to a reader: its text, else (an icon link) its aria-label, title or image alt."""
    text = _norm(a.text_content())
    if text:
        return text
    img = a.find(".//img")
    return _norm(a.get("aria-label") or a.get("title") or (img.get("alt") if img is not None else ""))


def is_link_block(el) -> bool:
    """Empty, or mostly link text: share bars (also of icon links named by their label), back links,
    related-job links."""
    links = [el] if el.tag == "a" else list(el.iter("a"))
    text = _norm(el.text_content())
    linked = [_link_words(a) for a in links]
    shown = len(text) + sum(len(w) for a, w in zip(links, linked) if not _norm(a.text_content()))
    if not shown:
        return True
    return sum(len(w) for w in linked) * 2 >= shown


# Where a share button sends the page: a network's share endpoint, a mail to fill in, a messenger's send link.
_SHARE_TARGET = re.compile(r"share|sharer|intent/tweet|/submit/?\?url=|^whatsapp:|whatsapp\.com/send|//wa\.me/|"
                           r"^mailto:\?|pin/create", re.I)
SHARE_LABEL_MAX_WORDS = 3
# A longer label that says it shares ("Share This Story, Choose Your Platform!", "Diesen Job teilen über").
_SHARE_WORD = re.compile(r"\b(?:share|sharing|teilen|partager|partagez|compartir|comparte|compartilhe|condividi|delen|"
                         r"deel|dela|jaa|udostępnij|sdílet|zdieľať|paylaş)\b|シェア|공유|分享", re.I)
SHARE_SAYING_LABEL_MAX_WORDS = 8


def is_share_bar(el) -> bool:
    """Two or more share buttons under a label of a few words ("Share:", "Teilen"): a control, though it has a
    heading (GG)."""
    links = [a for a in el.iter("a") if (a.get("href") or "").strip()]
    if len(links) < 2 or not all(_SHARE_TARGET.search(a.get("href").strip()) for a in links):
        return False
    rest = _norm(el.text_content())
    for a in links:
        rest = rest.replace(_norm(a.text_content()), " ", 1) if _norm(a.text_content()) else rest
    words = len(rest.split())
    return words <= SHARE_LABEL_MAX_WORDS or (words <= SHARE_SAYING_LABEL_MAX_WORDS and bool(_SHARE_WORD.search(rest)))


def is_all_links(el) -> bool:
    """Text, if any, only inside links."""
    text = _norm(el.text_content()).replace(" ", "")
    linked = "".join(_norm(a.text_content()) for a in el.iter("a")).replace(" ", "")
    has_link = el.tag == "a" or el.find(".//a") is not None
    return has_link and len(linked) >= len(text) - 3  # separators: "·", "|"


MENU_MIN_ITEMS = 3
MENU_ITEM_TAGS = frozenset({"li", "dd"})


def is_link_menu(el) -> bool:
    """A list whose items are only links (``<ul><li><a>…``, ``<dl><dt>Docs</dt><dd><a>…</a></dd>…``), at least
    MENU_MIN_ITEMS of them; a dl's terms are the menu's group names. Its labels name other pages, not values."""
    if el.tag not in ("ul", "ol", "dl", "menu"):
        return False
    items = [c for c in el if isinstance(c.tag, str) and c.tag in MENU_ITEM_TAGS and _norm(c.text_content())]
    return len(items) >= MENU_MIN_ITEMS and all(is_all_links(item) for item in items)


def in_link_menu(el) -> bool:
    """``el`` is a link menu, or an item of one that is only links."""
    parent = el.getparent()
    return is_link_menu(el) or (el.tag in MENU_ITEM_TAGS and parent is not None and is_link_menu(parent))


def is_explicit_label(el) -> bool:
    """A label by its markup or its colon: headings, dt/th/label, a bold lead-in, "Employment type:"."""
    if is_heading(el) or el.tag in ("dt", "th", "label", "legend", "caption", "strong", "b"):
        return True
    text = _norm(el.text_content())
    return bool(text) and len(text) <= LABEL_MAX_CHARS and text.endswith((":", "："))


def is_field_label(el) -> bool:
    """Short text without links: a field or section label ("Employment type:", "Benefits", "What we offer")."""
    if el.tag in ("dt", "th", "label", "legend", "caption"):
        return True
    text = _norm(el.text_content())
    if not text or el.tag == "a" or el.find(".//a") is not None:
        return False
    return len(text) <= LABEL_MAX_CHARS and len(text.split()) <= LABEL_MAX_WORDS


def _value_of_a_label(el) -> bool:
    """``el`` is the value cell of a label/value row: a dd, or a td after a th."""
    if el.tag == "dd":
        return True
    if el.tag != "td":
        return False
    previous = el.getprevious()
    while previous is not None and not isinstance(previous.tag, str):
        previous = previous.getprevious()
    return previous is not None and previous.tag == "th"


def is_label_value_row(el) -> bool:
    """A row pairing a label with its value: th/td or two cells, dt/dd, "Label: value", <b>Label</b> value."""
    if el.tag == "dl" or el.find("dt") is not None:
        return True
    cells = [c for c in el if isinstance(c.tag, str) and c.tag in ("td", "th")]
    if el.tag == "tr" and (len(cells) >= 2 or any(c.tag == "th" for c in cells)):
        return True
    text = _norm(el.text_content())
    if _LABEL_VALUE.match(text) and len(text) <= 200:
        return True
    kids = [c for c in el if isinstance(c.tag, str)]
    if len(kids) != 2 or not is_field_label(kids[0]) or not _norm(kids[1].text_content()):
        return False
    label = _norm(kids[0].text_content())
    return label.endswith((":", "：")) or kids[0].tag in ("dt", "th", "label", "strong", "b")


def analyse_template(roots: list, refs: list | None = None, shared=()) -> SiteTemplate:
    """Pair the samples' elements from <body> down and find the constant subtrees and the content.
    ``refs``: each sample's self-references, so links to the page itself do not make a region vary.
    ``shared``: first-sample blocks identical on another sample but missing on some (blocks_missing_on_first):
    their text does not count as varying, so none of them is taken for the job's content."""
    template = SiteTemplate(shared=set(shared))
    bodies = [r.find("body") if r.find("body") is not None else r for r in roots]
    refs = refs or [NO_REFERENCES] * len(roots)
    hashes = [subtree_hashes(b, r) for b, r in zip(bodies, refs)]
    template.main_heading = bodies[0].find(".//h1")
    varying_chars: dict = {}  # page-0 element -> characters of text it owns on page 0 that vary

    def own_chars(el) -> int:
        return len(_norm(el.text)) + sum(len(_norm(c.tail)) for c in el)

    stack = [(bodies[0], bodies[1:])]
    while stack:
        el, others = stack.pop()
        template.counterparts[el] = others
        if others is not None and all(hashes[k + 1].get(o) == hashes[0][el] for k, o in enumerate(others)):
            template.constant.add(el)
            continue
        template.varying.add(el)
        if el in shared:
            continue
        varying_chars[el] = own_chars(el)
        groups = _children_by_key(el)
        other_groups = [_children_by_key(o) for o in others] if others is not None else None
        for key, children in groups.items():
            aligned = other_groups is not None and all(len(g.get(key, ())) == len(children) for g in other_groups)
            for i, child in enumerate(children):
                paired = None
                if aligned:
                    paired = [g[key][i] for g in other_groups]
                elif other_groups is not None:
                    # Siblings of this kind differ in number (one more notice, one more card): a child still
                    # pairs with an identical sibling on every other sample.
                    paired = _identical_siblings(child, hashes, [g.get(key, ()) for g in other_groups]) or \
                        _same_named_sibling(child, children, [g.get(key, ()) for g in other_groups])
                stack.append((child, paired))
    # The page's title is the first <h1> that is not the same on every sample (a list of other jobs may come
    # first, each with its own <h1>); without one, the first h2/h3 whose text changes between samples.
    varying_h1 = next((h for h in bodies[0].iter("h1") if h not in template.constant
                       and not _inside_constant(h, template.constant)), None)
    if varying_h1 is not None:
        template.main_heading = varying_h1
    elif template.main_heading is not None and (template.main_heading in template.constant
                                                or _inside_constant(template.main_heading, template.constant)):
        # An <h1> the same on every sample is the site's name, not this page's title (the title is then an h2/h3).
        template.main_heading = None
    if template.main_heading is None:
        template.main_heading = next((h for h in bodies[0].iter("h2", "h3") if h in template.varying), None)
    template.content_root = _content_root(bodies[0], varying_chars)
    template.candidates = _outermost_constant(bodies[0], template)
    return template


def _inside_constant(el, constant: set) -> bool:
    return any(node in constant for node in el.iterancestors())


def _identical_siblings(child, hashes, other_siblings):
    """For each other sample, the one sibling identical to ``child`` (by subtree hash); None if any sample has
    none or several."""
    found = []
    for k, siblings in enumerate(other_siblings, start=1):
        same = [s for s in siblings if hashes[k].get(s) == hashes[0][child]]
        if len(same) != 1:
            return None
        found.append(same[0])
    return found


def _name(el) -> tuple:
    return _norm(el.get("class")), _norm(el.get("id"))


def _same_named_sibling(child, siblings, other_siblings):
    """For each other sample, the one sibling with ``child``'s class and id, where ``child`` is the only one of
    its siblings so named; None otherwise. A page-wide wrapper whose content varies ("main-wrapper" beside one
    more banner on some pages) still pairs with its counterpart, so the template inside it is found."""
    name = _name(child)
    if not any(name) or sum(1 for s in siblings if _name(s) == name) != 1:
        return None
    found = []
    for others in other_siblings:
        same = [s for s in others if _name(s) == name]
        if len(same) != 1:
            return None
        found.append(same[0])
    return found


def _content_root(body, varying_chars: dict):
    """The deepest element whose subtree holds at least CONTENT_SHARE of the varying text."""
    totals: dict = {}
    for _event, el in etree.iterwalk(body, events=("end",)):
        if isinstance(el.tag, str):
            totals[el] = varying_chars.get(el, 0) + sum(totals.get(c, 0) for c in el if isinstance(c.tag, str))
    whole = totals.get(body, 0)
    if not whole:
        return None
    node = body
    while True:
        heavy = [c for c in node if isinstance(c.tag, str) and totals.get(c, 0) >= CONTENT_SHARE * whole]
        if not heavy:
            return node
        # A posting written as a run of sections (intro, duties, profile, how to apply: <section> after <section>,
        # or siblings of one class) is the whole run, though its first section alone may hold half its varying
        # text.
        like = [c for c in node if c is not heavy[0] and isinstance(c.tag, str) and c.tag == heavy[0].tag
                and (c.tag == "section" or _norm(c.get("class")) == _norm(heavy[0].get("class")))]
        if sum(totals.get(c, 0) for c in like) >= LIKE_SECTIONS_SHARE * whole:
            return node
        # A list is one part of a posting (its requirements): where the text beside it varies too (the duties
        # above it), the posting is their container, though the list alone holds most of the varying text.
        if heavy[0].tag in ("ul", "ol", "dl") and any(totals.get(c, 0) for c in node if c is not heavy[0]
                                                      and isinstance(c.tag, str)):
            return node
        node = heavy[0]


def _outermost_constant(body, template: SiteTemplate) -> list:
    """Outermost constant subtrees in document order; one holding the main heading is split into its children."""
    found = []
    walker = etree.iterwalk(body, events=("start",))
    for _event, el in walker:
        if not isinstance(el.tag, str) or el is body:
            continue
        if in_sentence(el):
            walker.skip_subtree()  # words of a sentence, not a block: the same bold word on every page (GI)
            continue
        if el in template.constant:
            if template.holds_content(el):
                _mark_children_constant(el, template)  # look at its children instead
                continue
            found.append(el)
            walker.skip_subtree()
        elif el not in template.varying:
            walker.skip_subtree()  # never paired: no counterpart on some sample
    return found


def _mark_children_constant(el, template: SiteTemplate) -> None:
    """The children of a constant subtree are constant too, each paired with the same child on every sample."""
    kids = [c for c in el if isinstance(c.tag, str)]
    others = [[c for c in o if isinstance(c.tag, str)] for o in template.counterparts.get(el) or ()]
    for i, child in enumerate(kids):
        template.constant.add(child)
        template.counterparts[child] = [o[i] for o in others]


def _tag_path(el, body) -> tuple:
    path = []
    while el is not None and el is not body:
        path.append(el.tag)
        el = el.getparent()
    return tuple(path)


# A block some samples lack is taken as template only with at least this many words (a notice, a banner).
MISSING_MIN_WORDS = 5
ITEM_TAGS = frozenset({"a", "li", "dt", "dd", "tr", "td", "th", "option", "span", "img"})


def _one_of_many(el) -> bool:
    """An item: a link, list item or cell, or one of several siblings of its tag and class (tags, cards)."""
    parent = el.getparent()
    return el.tag in ITEM_TAGS or (parent is not None and sum(
        1 for sib in parent if sib.tag == el.tag and sib.get("class") == el.get("class")) >= 3)


def blocks_missing_on_first(roots: list, refs: list | None = None, content_root=None) -> dict[int, list]:
    """Template blocks the first sample lacks (a notice or banner on some pages only), which the analysis above,
    seen from the first sample, never meets: for each later sample, its outermost subtrees identical (same subtree
    hash, same tag path from <body>) to one on another later sample and found nowhere on the first sample.
    Whether one is template (not this job's text, no job fact) is judged as for any other candidate.

    ``content_root``: the first sample's job region (SiteTemplate.job_region: its text and its title). A block
    standing at its path from the root or inside it is the text of postings that share it word for word (one job
    posted for two places or under two titles, the duties list of one job family), not a notice: it and its parts
    are left out. An application form's fields there are judged as before."""
    bodies = [r.find("body") if r.find("body") is not None else r for r in roots]
    content_path = content_root.getroottree().getpath(content_root) if content_root is not None else None
    first_by_path: dict | None = None  # the first sample's elements by their path, read once where a block is found
    refs = refs or [NO_REFERENCES] * len(roots)
    hashes = [subtree_hashes(b, r) for b, r in zip(bodies, refs)]
    on_first = set(hashes[0].values())
    placed = [{(h, _tag_path(el, body)) for el, h in page.items()} for page, body in zip(hashes, bodies)]
    found: dict[int, list] = {}
    for k in range(1, len(bodies)):
        walker = etree.iterwalk(bodies[k], events=("start",))
        for _event, el in walker:
            if not isinstance(el.tag, str) or el is bodies[k]:
                continue
            digest = hashes[k][el]
            if digest in on_first:
                walker.skip_subtree()  # the first sample has it: the analysis above sees it there
                continue
            if len(_norm(el.text_content()).split()) < MISSING_MIN_WORDS or _one_of_many(el):
                # A few words shared by two postings (the employer, a city, a skill tag) or an item of a list
                # (a tag, a related link) is as likely this job's: only whole notices and banners are taken.
                continue
            key = (digest, _tag_path(el, bodies[k]))
            if any(key in placed[j] for j in range(1, len(bodies)) if j != k):
                if first_by_path is None:
                    tree = bodies[0].getroottree()
                    first_by_path = {tree.getpath(e): e for e in bodies[0].iter() if isinstance(e.tag, str)}
                path = el.getroottree().getpath(el)
                # Inside the first sample's job region: these postings' own text (a form's fields are the form's,
                # judged as any block). Where the first sample has it with other numbers ("865 views" beside "0
                # views", another date): not missing there, and its numbers are each page's own; a form's options
                # ("0-2 years") are the form's whatever their numbers.
                in_a_form = next(el.iterancestors("form"), None) is not None
                holds_a_form = in_a_form or next(el.iter("form"), None) is not None
                if not (_within(path, content_path) and not holds_a_form) and not (
                        _same_but_numbers(el, first_by_path.get(path)) and not in_a_form):
                    found.setdefault(k, []).append(el)
                walker.skip_subtree()
    return found


def _within(path: str, content_path: str | None) -> bool:
    """``path`` is the content root's path or one inside it: where the first sample holds its job text."""
    return content_path is not None and (path == content_path or path.startswith(content_path + "/"))


_DIGITS = re.compile(r"\d+")


def _same_but_numbers(el, counterpart) -> bool:
    """``el``'s text is that of its counterpart (None: there is none) but for its numbers."""
    if counterpart is None:
        return False
    mine, theirs = (_DIGITS.sub("0", _norm(node.text_content())) for node in (el, counterpart))
    return mine == theirs and any(ch.isdigit() for ch in _norm(el.text_content()))


def _words_beside_links_and_headings(el, enough: int) -> int:
    """The words of ``el`` outside its links and headings, counted up to just past ``enough``: one walk that does
    not enter a link or heading."""
    words = 0
    stack = [el]
    while stack and words <= enough:
        node = stack.pop()
        if node is not el:
            words += len((node.tail or "").split())
            if not isinstance(node.tag, str) or node.tag == "a" or is_heading(node):
                continue  # a comment's words, or a link's or heading's: not counted
        words += len((node.text or "").split())
        stack.extend(node)
    return words


def in_site_landmark(el, content=None) -> bool:
    """Inside the site's header, footer or nav (by tag or ARIA role), not inside an article or main (an article's
    own header holds its title and details). A landmark holding ``content`` (the text that varies between samples)
    is no site landmark but the page's own container: a template that leaves a tag unclosed puts the whole job
    inside its header, where the parser closes it only at the end of the page."""
    for node in el.iterancestors():
        role = (node.get("role") or "").strip().lower()
        if node.tag in ("article", "main") or role in ("main", "article"):
            return False
    holders = set(content.iterancestors()) if content is not None else set()
    return any((node.tag in ("header", "footer", "nav") or (node.get("role") or "").strip().lower() in
                ("banner", "contentinfo", "navigation")) and node not in holders for node in el.iterancestors())


OTHER_JOBS_MIN_ITEMS = 3


def other_jobs_list(el) -> bool:
    """A listing of other pages of one kind ("More openings"): three or more sibling items of one tag, each
    linking to a page in the same folder (``/careers/job/…``), and outside them no more than a heading's words."""
    for parent in (el, *el.iterdescendants(etree.Element)):
        items = [c for c in parent if isinstance(c.tag, str)]
        if len(items) < OTHER_JOBS_MIN_ITEMS or len({c.tag for c in items}) != 1:
            continue
        folders = {frozenset(link_folder(a.get("href")) for a in item.iter("a")
                             if not MAP_LINK.search(a.get("href") or "")) - {""} for item in items}
        if len(folders) != 1:
            continue
        (folder,) = folders
        if len(folder) != 1:
            continue
        outside = _norm(el.text_content())
        for item in items:
            outside = outside.replace(_norm(item.text_content()), " ", 1)
        return len(outside.split()) <= LABEL_MAX_WORDS
    return False


def link_cards(el) -> bool:
    """Three or more sibling items of one tag, each wholly one link (a card: its heading and teaser inside the
    link), and outside them only headings or a label's words."""
    for parent in (el, *el.iterdescendants(etree.Element)):
        items = [c for c in parent if isinstance(c.tag, str)]
        if len(items) < OTHER_JOBS_MIN_ITEMS or len({c.tag for c in items}) != 1:
            continue
        links = [[a for a in item.iter("a") if a.get("href")] for item in items]
        if not all(len(found) == 1 and _norm(found[0].text_content()) and
                   _norm(found[0].text_content()) == _norm(item.text_content()) for found, item in zip(links, items)):
            continue
        inside = {node for item in items for node in item.iter(etree.Element)}
        inside.update(node for heading in el.iter(etree.Element) if is_heading(heading)
                      for node in heading.iter(etree.Element))
        outside = " ".join(_norm(node.text) for node in el.iter(etree.Element) if node not in inside)
        outside += " " + " ".join(_norm(node.tail) for node in el.iterdescendants(etree.Element)
                                  if node.getparent() not in inside)
        return len(outside.split()) <= LABEL_MAX_WORDS
    return False


def _holds_a_sidebar(el) -> bool:
    """An aside or a nav (by tag or ARIA role) below ``el``: a layout block around the site's widgets."""
    return any(is_sidebar(node) or node.tag == "nav" or (node.get("role") or "").strip().lower() == "navigation"
               for node in el.iterdescendants(etree.Element))


def _wraps_landmarks_only(el) -> bool:
    """A block whose every word sits inside header, footer, nav or aside elements (by tag or ARIA role) below it:
    a layout wrapper of the site's landmarks, judged like them."""
    inside: set = set()
    for node in el.iterdescendants(etree.Element):
        if node not in inside and is_landmark(node):
            inside.update(node.iter(etree.Element))
    if not inside:
        return False
    for node in el.iter(etree.Element):
        if node not in inside and _norm(node.text):
            return False
        if node is not el and _norm(node.tail) and node.getparent() not in inside:
            return False
    return True


def mostly_links(element) -> bool:
    """Half its shown characters or more are link text (a menu's entry, a list of links)."""
    shown = len("".join(element.text_content().split()))
    return sum(len("".join(a.text_content().split())) for a in element.iter("a")) * 2 >= shown


def headed_by_job_section(region) -> bool:
    """Whether ``region`` opens with a heading that names job content and is more than a list of links."""
    heading = next(region.iter(*HEADING_TAGS), None)
    if heading is None:
        return False
    text = " ".join(heading.text_content().split())
    whole = " ".join(region.text_content().split())
    return bool(text) and whole.startswith(text) and names_job_section(text) and not mostly_links(region)


def job_section_in_content(region) -> bool:
    """A section of the job's own text headed as the posting's ("What we offer", "Company overview"): what it
    says is the job's (employer text included), though its only signal may be the owner's name. The site footer's
    "About us" blurb is the site's furniture."""
    return headed_by_job_section(region) and in_site_footer(region) is None


SECTION_SIBLINGS_MAX = 40


# A block that opens with a section's heading and an intro, right above the section's cards, is this short at most.
OPENER_MAX_CHARS = 600


def is_modal(el) -> bool:
    """A modal dialog: by its role, aria-modal, or a class token "modal"."""
    role = (el.get("role") or "").strip().lower()
    return role in ("dialog", "alertdialog") or (el.get("aria-modal") or "").strip().lower() == "true" or \
        "modal" in (el.get("class") or "").lower().split()


def job_section_above(region) -> str:
    """The heading among the region's earlier siblings, nearest first, where it names a posting's section
    ("<h1>Candidate profile</h1><p>…</p><ul>region</ul>"), and the region is more than links; else ''."""
    nearest = True
    for looked, sibling in enumerate(region.itersiblings(preceding=True)):
        if looked >= SECTION_SIBLINGS_MAX:
            return ""  # a long flat page: the heading is too far above to say what this part is
        if not isinstance(sibling.tag, str):
            continue
        heading = sibling if sibling.tag in HEADING_TAGS else _opening_heading(sibling) if nearest else None
        nearest = False
        if heading is not None:
            text = " ".join(heading.text_content().split())
            return text if text and names_job_section(text) and not mostly_links(region) else ""
    return ""


def _opening_heading(block):
    """The heading a short block opens with ("<section><h2>Our benefits</h2><p>intro</p></section>" right above
    the benefit cards), or None."""
    if len(_norm(block.text_content())) > OPENER_MAX_CHARS:
        return None
    for el in block.iterdescendants():
        if not isinstance(el.tag, str):
            continue
        if el.tag in HEADING_TAGS:
            return el
        if _norm(el.text):
            return None  # text before any heading
    return None
