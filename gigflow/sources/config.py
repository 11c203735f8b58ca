"""Pydantic models of a source configuration and its canonical hash."""

from __future__ import annotations

import hashlib
import ipaddress
import json
import re
from enum import StrEnum
from typing import Annotated, Literal, Union
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_serializer, model_validator

from gigflow.patterns import PatternError, compile_pattern
from gigflow.safety.guard import redact_url, url_problem

CONFIG_SCHEMA_VERSION = 1


class SourceStatus(StrEnum):
    candidate = "candidate"
    trial = "trial"
    active = "active"
    drifting = "drifting"
    quarantined = "quarantined"


def checked_http_url(value: str) -> str:
    """An absolute http(s) URL without credentials or an unsafe form, else ValueError naming the problem."""
    value = value.strip()
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"not an absolute http(s) URL: {redact_url(value)!r}")
    problem = url_problem(value)
    if problem == "credentials in the URL":
        raise ValueError(f"credentials in the URL are refused ({redact_url(value)!r}): they would be stored, sent "
                         "to every redirect target and logged; use a URL without user:password@")
    if problem:
        raise ValueError(f"{problem}: {redact_url(value)!r}")
    return value


# C0 controls (but tab, newline, carriage return), DEL and C1 controls: invisible, and NUL cannot be stored.
_CONTROL_CHARACTERS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def control_character_problems(data, path: str = "") -> list[str]:
    """Each string (key or value) in ``data`` holding a control character, named by its field path."""
    problems: list[str] = []
    if isinstance(data, str):
        found = _CONTROL_CHARACTERS.search(data)
        if found:
            problems.append(f"{path or '(value)'}: control character U+{ord(found.group()):04X} at position "
                            f"{found.start()} is not allowed")
    elif isinstance(data, dict):
        for key, value in data.items():
            name = f"{path}.{key}" if path else str(key)
            problems += control_character_problems(key, f"{name} (key)") if isinstance(key, str) else []
            problems += control_character_problems(value, name)
    elif isinstance(data, (list, tuple)):
        for index, value in enumerate(data):
            problems += control_character_problems(value, f"{path}[{index}]")
    return problems


def _regexes(values: list[str]) -> list[str]:
    """Patterns must compile on RE2 (linear time), which is what crawls and preparation run them on."""
    for index, pattern in enumerate(values):
        try:
            compile_pattern(pattern)
        except PatternError as exc:
            raise ValueError(f"pattern {index} {pattern!r} is not a usable regular expression: {exc}") from None
    return values


def checked_css(value: str | None) -> str | None:
    """A CSS selector must translate to XPath that lxml compiles: refused at import, not found broken mid-crawl."""
    if value is None:
        return value
    from lxml import etree
    from parsel.csstranslator import HTMLTranslator

    try:
        etree.XPath(HTMLTranslator().css_to_xpath(value))
    except Exception as exc:  # cssselect's SelectorError/ExpressionError, lxml's XPathSyntaxError
        raise ValueError(f"{value!r} is not a usable CSS selector: {exc}") from None
    return value


class _Strategy(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class HrefStrategy(_Strategy):
    """A listing page of cards that link to job pages."""

    type: Literal["href"] = "href"
    listing_urls: list[str] = Field(min_length=1)
    card_selector: str | None = None
    job_url_patterns: list[str] = Field(default_factory=list)
    exclude_patterns: list[str] = Field(default_factory=list)
    next_page_selector: str | None = None
    max_listing_pages: int = Field(default=20, ge=1)

    _urls = field_validator("listing_urls")(lambda cls, v: [checked_http_url(u) for u in v])
    _patterns = field_validator("job_url_patterns", "exclude_patterns")(lambda cls, v: _regexes(v))
    _selectors = field_validator("card_selector", "next_page_selector")(lambda cls, v: checked_css(v))


class SitemapStrategy(_Strategy):
    """Job URLs from sitemaps (configured, or announced by robots.txt). No card selector."""

    type: Literal["sitemap"] = "sitemap"
    sitemap_urls: list[str] = Field(default_factory=list)
    job_url_patterns: list[str] = Field(default_factory=list)
    exclude_patterns: list[str] = Field(default_factory=list)
    use_robots: bool = True

    _urls = field_validator("sitemap_urls")(lambda cls, v: [checked_http_url(u) for u in v])
    _patterns = field_validator("job_url_patterns", "exclude_patterns")(lambda cls, v: _regexes(v))


class ClickStrategy(_Strategy):
    """A JavaScript listing whose items reveal a detail region when clicked."""

    type: Literal["click"] = "click"
    listing_url: str
    item_selector: str
    detail_selector: str
    load_more_selector: str | None = None
    max_items: int = Field(default=200, ge=1)

    _url = field_validator("listing_url")(lambda cls, v: checked_http_url(v))
    _selectors = field_validator("item_selector", "detail_selector", "load_more_selector")(
        lambda cls, v: checked_css(v))


class FeedStrategy(_Strategy):
    """RSS or Atom feeds; entries may link to job pages."""

    type: Literal["feed"] = "feed"
    feed_urls: list[str] = Field(min_length=1)
    follow_links: bool = False

    _urls = field_validator("feed_urls")(lambda cls, v: [checked_http_url(u) for u in v])


ATS_PROVIDERS = ("greenhouse", "lever", "recruitee", "smartrecruiters", "workable", "ashby", "workday", "personio",
                 "teamtailor", "bamboohr", "breezy", "pinpoint", "manatal", "jibe", "radancy")


class AtsStrategy(_Strategy):
    """A public applicant-tracking-system board, named by its id or by its public URL (``board_url``: the board id
    is read from it; Workday, Jibe and Radancy boards are best given this way, as they live on tenant or employer
    hosts). A Workday board id is ``<tenant>.<wdN>/<site>``, a Radancy one ``<host>/<language>``, a Jibe one its
    host."""

    type: Literal["ats"] = "ats"
    provider: Literal[ATS_PROVIDERS]
    board_id: str = Field(default="", pattern=r"^$|^[A-Za-z0-9_.\-]+(/[A-Za-z0-9_.\-]+)?$")
    region: Literal["us", "eu"] = "us"
    board_url: str | None = None

    _url = field_validator("board_url")(lambda cls, v: checked_http_url(v) if v is not None else v)

    @model_validator(mode="before")
    @classmethod
    def _board_from_url(cls, data):
        """The board id read from ``board_url`` when only the URL is given."""
        if isinstance(data, dict) and not data.get("board_id") and isinstance(data.get("board_url"), str):
            from gigflow.adapters.ats.recognise import board_from_strategy_url

            provider, url = data.get("provider"), data["board_url"].strip()
            board = board_from_strategy_url(provider, url) if isinstance(provider, str) else None
            if not board:
                raise ValueError(f"board_url {redact_url(url)!r} names no {provider} board; give board_id")
            data = {**data, "board_id": board}
        return data

    @model_validator(mode="after")
    def _board(self):
        if not self.board_id:
            raise ValueError("an ats strategy needs board_id or board_url")
        return self

    @model_serializer(mode="wrap")
    def _without_unset_board_url(self, handler):
        # Left out when not given, so a source configured before board URLs keeps its configuration hash.
        return {key: value for key, value in handler(self).items() if key != "board_url" or value is not None}


_NO_LINE_BREAK = r"^[^\r\n\x00]*$"  # IMAP command arguments: a line break would smuggle in a command


class ImapMailbox(_Strategy):
    """An IMAP folder read read-only. The password is never here: ``password_env`` names the variable holding it."""

    host: str = Field(min_length=1, max_length=253)  # a host name or IP address, no scheme or port
    port: int | None = Field(default=None, ge=1, le=65535)  # default: 993 with TLS, 143 without
    tls: bool = True
    user: str = Field(min_length=1, pattern=_NO_LINE_BREAK)
    password_env: str = Field(default="GIGFLOW_IMAP_PASSWORD", pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")
    folder: str = Field(default="INBOX", min_length=1, pattern=_NO_LINE_BREAK)
    search: str = Field(default="ALL", min_length=1, pattern=_NO_LINE_BREAK)  # an IMAP SEARCH criterion

    @field_validator("host")
    @classmethod
    def _host(cls, value: str) -> str:
        host = value.strip().strip("[]")
        problem = f"not a host name or IP address: {value!r} (no scheme; the port goes in port)"
        if ":" in host:  # only an IPv6 address has colons; "host:port" belongs in port
            try:
                return str(ipaddress.IPv6Address(host))
            except ValueError:
                raise ValueError(problem) from None
        if not re.fullmatch(r"[A-Za-z0-9_.\-]+", host):
            raise ValueError(problem)
        return host

    @model_validator(mode="before")
    @classmethod
    def _no_password(cls, data):
        if isinstance(data, dict) and "password" in data:
            raise ValueError("password: a password never lives in the source file; put it in an environment "
                             "variable and name that variable in password_env")
        return data

    @property
    def effective_port(self) -> int:
        return self.port or (993 if self.tls else 143)


class MailboxStrategy(_Strategy):
    """Job-alert e-mails from a Maildir or a folder of .eml files, read directly (never fetched), or from IMAP."""

    type: Literal["mailbox"] = "mailbox"
    path: str | None = Field(default=None, min_length=1)  # a Maildir (with cur/ and new/) or a folder of *.eml
    imap: ImapMailbox | None = None

    @model_validator(mode="after")
    def _one_mailbox(self):
        if (self.path is None) == (self.imap is None):
            given = "both" if self.path is not None else "neither"
            raise ValueError(f"a mailbox strategy needs exactly one of 'path' or 'imap' ({given} given)")
        return self

    @model_serializer(mode="wrap")
    def _without_unset_mailbox(self, handler):
        # The form not used is left out, so a path source keeps the configuration hash it had before IMAP.
        return {key: value for key, value in handler(self).items() if key not in ("path", "imap") or value is not None}


Strategy = Annotated[
    Union[HrefStrategy, SitemapStrategy, ClickStrategy, FeedStrategy, AtsStrategy, MailboxStrategy],
    Field(discriminator="type"),
]


class SourceConfig(BaseModel):
    """One source: a company's career site and the strategies that harvest it."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1, max_length=120, pattern=r"^[a-z0-9][a-z0-9_.\-]*$")
    company: str = Field(min_length=1)
    canonical_url: str
    strategies: list[Strategy] = Field(min_length=1)
    status: SourceStatus = SourceStatus.candidate
    parser_key: str | None = None

    _url = field_validator("canonical_url")(lambda cls, v: checked_http_url(v))

    def canonical_json(self) -> str:
        """Canonical JSON of what defines the configuration: sorted keys, no whitespace."""
        payload = {
            "canonical_url": self.canonical_url,
            "schema_version": CONFIG_SCHEMA_VERSION,
            "strategies": [s.model_dump(mode="json") for s in self.strategies],
        }
        return json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    def config_hash(self) -> str:
        return hashlib.sha256(self.canonical_json().encode("utf-8")).hexdigest()

    def strategy(self, kind: str):
        """The first strategy of ``kind``, or None."""
        return next((s for s in self.strategies if s.type == kind), None)
