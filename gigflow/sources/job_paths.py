"""Words a job page's address carries in its path ("/jobs/", "/karriere/stellen/", "/vacatures/"), in the
languages of the corpus: what discovery and an href crawl without patterns read first."""

from __future__ import annotations

import re

JOB_WORDS = re.compile(r"(?:^|[/_.-])(?:jobs?|careers?|vacanc(?:y|ies)|vacatures?|stellen?|stellenangebote?|"
                       r"positions?|openings?|postings?|roles?|offres?|emplois?|empleos?|ofertas?|lavoro|"
                       r"werken|jobb|tyopaikat|opportunit(?:y|ies)|requisitions?)(?:[/_.-]|$)", re.I)
