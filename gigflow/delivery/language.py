"""Which PostgreSQL text search dictionary suits a job's text: a cheap guess from the share of each language's
most common function words (no model, microseconds per job). Pure.

Languages PostgreSQL ships a stemmer for get that configuration; scripts without word spacing (Japanese, Chinese,
Korean) and languages without a stemmer (Slovak, Czech, Polish, ...) get ``simple`` (lower-cased words, no
stemming, no stop words), which still matches exact words."""

from __future__ import annotations

import re
import unicodedata

_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")

# Function words that are frequent in job adverts and rare in other languages' text.
STOPWORDS: dict[str, frozenset[str]] = {name: frozenset(words.split()) for name, words in {
    "english": "the and of to in for with you our we are is on as be will your this an or at from have who",
    "german": "und der die das wir sie für mit ist ein eine zu von den auf bei im als dich du ihre unser unsere "
              "oder des dem",
    "french": "et le la les des de du pour vous nous une un est dans avec sur en au aux votre notre qui vos",
    "dutch": "en de het van een voor je wij we jij met op zijn ons onze bij naar als ook jouw",
    "finnish": "ja on että tai sekä ovat olla meidän sinun kanssa joka tämä myös mukaan etsimme haemme",
    "italian": "e il la di che per con una un del della dei nel sono siamo nostro nostra alla gli le",
    "spanish": "y el la de que en los las para con una un del por nuestro nuestra somos es tu",
    "portuguese": "e o a de que em os as para com uma um do da dos das nosso nossa somos é você",
    "swedish": "och att det som en är för med på av vi du har till vår våra eller",
    "danish": "og at det som en er for med på af vi du har til vores eller",
    "norwegian": "og at det som en er for med på av vi du har til vår våre eller",
    "slovak": "a je na sa pre v s z do sme od ako alebo pozícia práca",
    "czech": "a je na se pro v s z do jsme od jako nebo pozice práce",
    "polish": "i w na z do się jest dla oraz nie od jako lub praca",
}.items()}
# Languages PostgreSQL has no stemmer for: detected (so they are not mistaken for another), indexed as simple.
NO_STEMMER = frozenset({"slovak", "czech", "polish"})
DEFAULT = "english"


def detect(text: str, *, sample: int = 4000) -> str:
    """The text search configuration for ``text``: a language name PostgreSQL knows, or ``simple``."""
    text = (text or "")[:sample]
    if len(_CJK.findall(text)) >= 5:
        return "simple"
    words = [w.lower() for w in _WORD.findall(text)]
    if not words:
        return DEFAULT
    hits = {name: 0 for name in STOPWORDS}
    for word in words:
        for name, stop in STOPWORDS.items():
            if word in stop:
                hits[name] += 1
    best = max(hits, key=lambda name: (hits[name], name == DEFAULT))
    if hits[best] < 2:
        return DEFAULT
    return "simple" if best in NO_STEMMER else best


# Configurations a query is parsed with (each stems it its own way; the parses are OR-ed): every language above
# with a stemmer, and simple.
QUERY_CONFIGS = tuple(sorted({name for name in STOPWORDS if name not in NO_STEMMER} | {"simple"}))

_CJK_RUN = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]+")


def cjk_bigrams(text: str) -> str:
    """``text`` with each run of CJK characters replaced by its overlapping character pairs, space-separated:
    these scripts do not space their words, so pairs are what the index and a query can both find."""
    def pairs(match: re.Match) -> str:
        run = match.group(0)
        return " " + (run if len(run) == 1 else " ".join(run[i:i + 2] for i in range(len(run) - 1))) + " "

    return _CJK_RUN.sub(pairs, text or "")


def accent_free_variants(text: str) -> str:
    """The words of ``text`` that carry diacritics, without them ("São Paulo" -> "Sao"), space-separated: indexed
    beside the originals so a query typed without accents finds them too."""
    variants = []
    for word in _WORD.findall(text or ""):
        folded = "".join(ch for ch in unicodedata.normalize("NFKD", word) if not unicodedata.combining(ch))
        if folded != word and not _CJK.search(word):
            variants.append(folded)
    return " ".join(dict.fromkeys(variants))
