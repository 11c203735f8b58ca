"""The site's and its owner's names, as the page gives them: a title or employer that is one of them is no job's."""

from __future__ import annotations

import re

from gigflow.adapters.common import clean_text, host_of
from gigflow.adapters.generic.patterns import COPYRIGHT, LEGAL_SUFFIX, TITLE_SEPARATOR
from gigflow.adapters.generic.text import squash
from gigflow.adapters.text_patterns import normalise


class SiteNames:
    """Mixin of the page (gigflow.adapters.generic.page.Page): names of the site and its owner, once per page."""

    def owner_names(self) -> set[str]:
        """Squashed names the page gives its owner: og:site_name, application-name, logo alt texts and the
        copyright holder (once per page)."""
        if not hasattr(self, "_owner_names"):
            names = [self._og_site_name(), self.meta.get("application-name")]
            for image in self.root.iter("img"):
                if "logo" in f"{image.get('class') or ''} {image.get('id') or ''} {image.get('src') or ''}".lower():
                    names.append(re.sub(r"\s*\blogo\b\s*", " ", image.get("alt") or "", flags=re.I))
            for element in list(self._chrome)[-400:]:
                # the line may follow an icon inside its block ("<div class=bolt></div> © 2014 Union, LLC")
                for text in (element.text or "", element.tail or ""):
                    if "©" in text or "copyright" in text.lower() or "(c)" in text.lower():
                        match = COPYRIGHT.search(clean_text(text, 200) or "")
                        if match:
                            names.append(match.group("name"))
            self._owner_names = {squash(LEGAL_SUFFIX.sub("", n.strip(" .,-|"))) for n in names if n} - {""}
        return self._owner_names

    def _is_owner_name(self, text: str) -> bool:
        return squash(LEGAL_SUFFIX.sub("", text)) in self.owner_names()

    def site_names(self) -> list[str]:
        """Squashed names of the site itself: og:site_name, application-name and the host's labels."""
        if hasattr(self, "_site_names"):
            return self._site_names
        names = [squash(name) for name in (self._og_site_name(), self.meta.get("application-name")) if name]
        host = host_of(self.url)
        labels = [label for label in host.split(".") if label not in ("www", "com", "org", "net", "co", "jobs")]
        names.extend(label.replace("-", "") for label in labels if len(label) > 2)
        self._site_names = [n for n in names if n]
        return self._site_names

    def _og_site_name(self) -> str | None:
        """og:site_name; when it is the page's own document title copied ("Welder in Geel | Acme Jobs": a CMS that
        fills every page's site name with its title), only the title's last part names the site ("Acme Jobs")."""
        name = (self.meta.get("og:site_name") or "").strip()
        parts = [p.strip() for p in TITLE_SEPARATOR.split(name) if p.strip()]
        if len(parts) >= 2 and any(normalise(name) == normalise(t) for t in (
                self.meta.get("<title>"), self.meta.get("og:title"), self.meta.get("twitter:title")) if t):
            return parts[-1]
        return name or None

    def _is_site_name(self, text: str) -> bool:
        """"JobTarget, LLC" on jobtargetjobfinder.com; not "Vercel General Application" on vercel.com."""
        squashed = squash(LEGAL_SUFFIX.sub("", text))
        short = len(LEGAL_SUFFIX.sub("", text).split()) <= 2
        return bool(squashed) and any(squashed == name or (len(squashed) > 3 and squashed in name)
                                      or (short and len(name) > 3 and name in squashed)
                                      for name in self.site_names())
