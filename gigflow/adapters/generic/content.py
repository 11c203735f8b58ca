"""The job's salary, description and apply link as the page shows them."""

from __future__ import annotations

import re
from urllib.parse import urljoin

from gigflow.adapters.ats.recognise import posting_of
from gigflow.adapters.common import clean_text, host_of, is_http_url
from gigflow.adapters.generic.patterns import APPLY_WORDS
from gigflow.adapters.text_patterns import SALARY_HINT, parse_salary
from gigflow.adapters.types import Evidence, Salary
from gigflow.documents.embeds import is_form_embed


class JobContent:
    """Mixin of the page (gigflow.adapters.generic.page.Page): salary, description and apply_url."""

    def salary(self):
        labelled = self.labelled.get("salary")
        if labelled:
            salary = parse_salary(labelled[0], currency_hint=None)
            if salary:
                return salary, labelled[1]
            if re.search(r"[^\W\d_]{2}", labelled[0]):
                # A pay scale or a sentence without an amount ("TVöD E9", "competitive"): kept as text.
                return Salary(raw=" ".join(labelled[0].split())[:300]), labelled[1]
        for element in self.content:
            text = element.text or ""
            if SALARY_HINT.search(text) and re.search(r"\d", text) and len(text) < 120:
                salary = parse_salary(text)
                if salary and (salary.min or 0) >= 10:
                    return salary, Evidence(method="text-pattern", snippet_or_path=text.strip()[:200],
                                            confidence=0.5)
        return None

    def description(self) -> tuple[str, Evidence] | None:
        """The visible text of main, article or the body, boilerplate containers left out, bounded."""
        for xpath in ("//main", "//article", "//*[@role='main']", "//body"):
            for container in self.root.xpath(xpath):
                if self._in_chrome(container) and xpath != "//body":
                    continue
                lines = []
                for node in container.iter():
                    if not isinstance(node.tag, str):
                        continue
                    if not self._in_chrome(node) and node.text and node.text.strip():
                        lines.append(" ".join(node.text.split()))
                    if node is not container and node.tail and node.tail.strip() \
                            and not self._in_chrome(node.getparent()):
                        lines.append(" ".join(node.tail.split()))
                text = "\n".join(lines)[:20000]
                if len(text) > 200:
                    return text, Evidence(method="css", snippet_or_path=xpath, confidence=0.5)
        return None

    def apply_url(self) -> tuple[str, Evidence] | None:
        """The page's apply link, hrefs read against `<base href>`. Strongest first: a link to one posting on a
        known ATS (whatever its text: "Откликнуться", "Apply on the studio's site"); an apply link in the page's
        content, one to another site first; the page itself when it holds the application form; last an apply
        link of the site's header or menu (often one for every page: a listing or a general application)."""
        ats, content, frame = [], [], []
        for anchor in self.root.iter("a"):
            raw = (anchor.get("href") or "").strip()
            if not raw or raw.startswith(("#", "javascript:", "mailto:", "tel:")):
                continue
            try:
                href = urljoin(self.base, raw)
            except ValueError:  # a malformed link is no apply link
                continue
            if not is_http_url(href):
                continue
            text = clean_text(anchor.text_content(), 80) or " ".join(i.get("alt") or "" for i in anchor.iter("img"))
            provider = posting_of(href)
            if provider and host_of(href) != host_of(self.url) and not self._in_site_frame(anchor):
                ats.append((href, anchor, provider))
            if not text or len(text) > 60 or not APPLY_WORDS.search(text):
                continue
            (frame if self._in_chrome(anchor) and not self._weak_chrome(anchor) else content).append((href, anchor))
        for row in self.labels.get("apply_url", []):
            parent = row.element.getparent()
            link = parent.find(".//a[@href]") if parent is not None else None
            if link is not None and link is not row.element:
                href = urljoin(self.base, link.get("href").strip())
                if is_http_url(href):
                    content.append((href, link))
        if ats:
            href, anchor, provider = ats[0]
            return href, Evidence(method="css", snippet_or_path=f"{self.path(anchor)}@href ({provider} posting)",
                                  confidence=0.7)
        if content:
            href, anchor = sorted(content, key=lambda f: host_of(f[0]) == host_of(self.url))[0]
            external = host_of(href) != host_of(self.url)
            return href, Evidence(method="css", snippet_or_path=f"{self.path(anchor)}@href"
                                                                f"{' (another site)' if external else ''}",
                                  confidence=0.65 if external else 0.6)
        embedded = self._embedded_form()
        if embedded is not None:
            href, frame = embedded
            return href, Evidence(method="css", snippet_or_path=f"{self.path(frame)}@src (embedded application form)",
                                  confidence=0.6)
        form = self._application_form()
        if form is not None and self.canonical_url():
            return self.canonical_url(), Evidence(method="css", snippet_or_path=f"{self.path(form)} application "
                                                  "form on the page", confidence=0.55)
        if frame:
            href, anchor = frame[0]
            return href, Evidence(method="css", snippet_or_path=f"{self.path(anchor)}@href (site menu)",
                                  confidence=0.35)
        return None

    def _embedded_form(self):
        """(href, iframe) of an application form the page embeds (a form builder's, an application page)."""
        for frame in self.root.iter("iframe"):
            src = (frame.get("src") or "").strip()
            if not is_form_embed(src) or self._hidden(frame) or self._in_chrome(frame):
                continue
            try:
                href = urljoin(self.base, src)
            except ValueError:
                continue
            if is_http_url(href):
                return href, frame
        return None

    def _application_form(self):
        """A form on the page that takes an application: a file upload, or at least four fields and a submit."""
        for form in self.root.iter("form"):
            if self._hidden(form) or re.search(r"search|log-?in|sign-?(?:in|up)|regist|account|newsletter|subscribe",
                                               f"{form.get('class') or ''} {form.get('id') or ''} "
                                               f"{form.get('action') or ''}", re.I):
                continue
            inputs = [i for i in form.iter("input", "textarea", "select")
                      if (i.get("type") or "text").lower() not in ("hidden", "submit", "button")]
            if any((i.get("type") or "").lower() == "password" for i in inputs):
                continue  # an account's sign-up or sign-in form, not an application
            if any((i.get("type") or "").lower() == "file" for i in inputs) or len(inputs) >= 4:
                return form
        return None
