"""An application form under its heading (issue #23, class CC).

Inside the job's region a heading is kept as the job's own ("a heading inside the job content"), so a block that
is a heading over a form ("Apply for this job" above name, e-mail and résumé fields and a Submit button) stayed
whole. Such a block, the same on every sample, is a control like a search box: its heading names the form, its
words are the form's fields and buttons (a job-alert sign-up adds a line under its heading and its confirmation).
It goes to the classifier, which keeps a form stating a fact (a deadline, the documents to send); the job's own
text, headings and lists beside it stay. Pure functions over lxml trees.
"""

from __future__ import annotations

from lxml import etree

# Beside its form a block may hold a heading ("Apply for this job", "Get similar jobs by e-mail") and two short
# lines: one under it ("We will keep you posted on new jobs like this one."), the form's confirmation ("Thank you
# for subscribing"). No more words than these, no more lines.
HEADING_MAX_WORDS = 32
LINES_MAX = 2
HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6", "legend"})


def _words(text: str | None) -> int:
    return len(text.split()) if text else 0


def heading_over_form(el) -> bool:
    """``el`` is a form, or holds one and outside its forms only heading words (at most HEADING_MAX_WORDS)."""
    forms = [el] if el.tag == "form" else list(el.iter("form"))
    if not forms:
        return False
    inside = {node for form in forms for node in form.iter(etree.Element)}
    outside = 0
    for node in el.iter(etree.Element):
        if node in inside:
            continue
        outside += _words(node.text)
        outside += sum(_words(child.tail) for child in node if child not in inside or child in forms)
    if outside > HEADING_MAX_WORDS:
        return False
    # What stands outside the forms is a heading and at most two short lines beside it (or nothing): no paragraphs
    # of the job's text. The classifier still keeps a form stating a fact (its deadline, the documents to send).
    lines = [node for node in el.iter(etree.Element) if node not in inside and node.tag not in HEADINGS
             and (node.text or "").strip() and not any(a.tag in HEADINGS for a in node.iterancestors())]
    return len(lines) <= LINES_MAX


# What a form's own words sit in: the names of its fields and the words of its buttons and choices.
_CONTROL_WORDS = frozenset({"label", "option", "optgroup", "button", "legend"})
_CONTROLS = frozenset({"input", "select", "textarea"})


def names_a_form_field(el) -> bool:
    """``el`` holds a form control and says nothing but its field's name ("Search:" over a search box): every word
    in it is inside a ``<label>``, a button or a choice. Such a colon names an input, not a job fact beside it."""
    if not any(isinstance(node.tag, str) and node.tag in _CONTROLS for node in el.iter()):
        return False
    words = False
    for node in el.iter(etree.Element):
        own = node.tag in _CONTROL_WORDS or any(a.tag in _CONTROL_WORDS for a in node.iterancestors())
        if (node.text or "").strip() and not own:
            return False
        tail_own = node.getparent() is not None and (node.getparent().tag in _CONTROL_WORDS or any(
            a.tag in _CONTROL_WORDS for a in node.getparent().iterancestors()))
        if node is not el and (node.tail or "").strip() and not tail_own:
            return False
        words = words or bool((node.text or "").strip())
    return words
