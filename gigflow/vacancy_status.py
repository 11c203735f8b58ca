"""A page's own notice that its vacancy is closed ("This position has been filled", "Stelle ist besetzt", "poste
pourvu"): the noise filter keeps it (the reader must see it) and extraction states it on the job, which the upkeep
then treats as expired. One pattern for both, in the languages of the corpus and the development sets.

Only a state, never a future deadline or a condition: "Applications close on 31 March" is a closing date
(``valid_through``), "open until the position is filled" says nothing of its state."""

from __future__ import annotations

import re

CLOSED_NOTICE = re.compile(
    # "Open until the position is filled" is a condition, not a state: no conditional word just before.
    r"\b(?:(?<!before )(?<!until )(?<!once )(?<!when )(?<!if )(?<!after )(?<!till )"
    r"(?:this|the) (?:position|role|job|vacancy|posting|opening|application) (?:has been|is|was) (?:now )?"
    r"(?:filled|closed)|applications (?:are|have) (?:now )?closed|no longer (?:accepting|available|open|active)|"
    r"(?:job|position|vacancy|posting|offer|listing) has expired|poste (?:a été |est )?pourvu|"
    r"offre (?:est )?(?:expirée|clôturée|pourvue)|candidatures (?:sont )?closes|"
    r"n['’]accepte plus de candidatures|keine bewerbungen mehr|geen sollicitaties meer|"
    r"ya no (?:acepta|se aceptan) (?:solicitudes|candidaturas)|"
    r"stelle (?:ist )?(?:bereits )?(?:besetzt|vergeben)|nicht mehr (?:verfügbar|aktuell)|"
    r"bewerbungsfrist (?:ist )?abgelaufen|vacature is (?:gesloten|vervuld|ingevuld)|"
    r"niet meer beschikbaar|ya no está disponible|(?:puesto|vacante|oferta) (?:ha sido )?"
    r"(?:cubiert[oa]|cerrad[oa])|non è più disponibile|posizione (?:è )?(?:chiusa|coperta)|"
    r"tjänsten är tillsatt|haku on päättynyt)\b", re.I)

# A status badge on the posting's title ("Designer <span>hired</span>", "Welder <span>Besetzt</span>"): one word, in
# an element of its own inside the title heading; a word in running text says nothing of the state.
CLOSED_BADGE = re.compile(r"^(?:hired|filled|closed|expired|besetzt|vergeben|pourvue?|clôturée?|chius[oa]|"
                          r"coperta|cerrad[oa]|cubiert[oa]|gesloten|vervuld|tillsatt)$", re.I)


def closed_badge(heading):
    """The element inside ``heading`` (an lxml element) that is a closed-status badge, or None."""
    for child in heading.iterdescendants():
        if isinstance(child.tag, str) and CLOSED_BADGE.match(" ".join(child.text_content().split())):
            return child
    return None


def without_badge(text: str, badge) -> str | None:
    """``text`` (a title heading's words) without the ``badge`` word that ends it ("Designer hired" -> "Designer"),
    or None when the text does not end with it."""
    word = " ".join(badge.text_content().split())
    if not text.endswith(word) or len(text) <= len(word):
        return None
    return text[:-len(word)].rstrip(" -–—|·:")
