"""Read an IMAP folder read-only with the standard library's ``imaplib``: search, then headers, then bodies.

The connection goes to an address the URL guard has already checked (never a fresh DNS answer), and TLS still
verifies the certificate against the configured host name. Every failure is an ``ImapFailure`` whose ``reason`` is
a short code for the run's outcome and whose message says what went wrong.
"""

from __future__ import annotations

import email
import email.policy
import imaplib
import re
import socket
import ssl
from dataclasses import dataclass

from gigflow.sources.config import ImapMailbox

HEADER_FETCH = "(UID RFC822.SIZE BODY.PEEK[HEADER.FIELDS (MESSAGE-ID)])"
BODY_FETCH = "(UID BODY.PEEK[])"  # PEEK: reading never marks a message \Seen
HEADER_BATCH = 500  # UIDs per header FETCH command: short command lines, bounded responses

_UID = re.compile(rb"\bUID (\d+)", re.IGNORECASE)
_SIZE = re.compile(rb"\bRFC822\.SIZE (\d+)", re.IGNORECASE)
_FETCH_START = re.compile(rb"^\d+ \(")


class ImapFailure(Exception):
    """An IMAP step that failed. ``reason``: ``imap_login_failed`` or ``imap_failed``."""

    def __init__(self, reason: str, message: str):
        super().__init__(message)
        self.reason = reason


@dataclass(frozen=True)
class MessageHeader:
    uid: int
    size: int | None
    headers: email.message.EmailMessage  # only the fetched fields (Message-ID)


def _pinned_socket(address: str, port: int, timeout: float) -> socket.socket:
    return socket.create_connection((address, port), timeout)


class _PinnedIMAP4(imaplib.IMAP4):
    """IMAP over plain TCP to a checked address."""

    def __init__(self, host: str, port: int, address: str, timeout: float):
        self.pinned_address = address
        super().__init__(host, port, timeout)

    def _create_socket(self, timeout):
        return _pinned_socket(self.pinned_address, self.port, timeout)


class _PinnedIMAP4_SSL(imaplib.IMAP4_SSL):
    """IMAP over TLS to a checked address; the certificate must match the configured host."""

    def __init__(self, host: str, port: int, address: str, timeout: float):
        self.pinned_address = address
        super().__init__(host, port, ssl_context=ssl.create_default_context(), timeout=timeout)

    def _create_socket(self, timeout):
        sock = _pinned_socket(self.pinned_address, self.port, timeout)
        return self.ssl_context.wrap_socket(sock, server_hostname=self.host)


def imap_quote(text: str) -> str:
    """An IMAP quoted string (the configuration refuses line breaks, so quoting is enough)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def fetched_messages(data: list) -> list[tuple[bytes, bytes | None]]:
    """(fetch attributes, literal) per message of an imaplib FETCH answer.

    imaplib gives a message with a literal as ``(b'1 (UID 7 ... {n}', literal)`` followed by the rest of its line
    (``b')'`` or ``b' UID 7)'`` when the server names the UID last); a message without one is a plain line."""
    messages: list[list] = []
    for part in data:
        if isinstance(part, tuple):
            messages.append([part[0], part[1]])
        elif isinstance(part, bytes) and _FETCH_START.match(part):
            messages.append([part, None])
        elif isinstance(part, bytes) and messages:
            messages[-1][0] += part
    return [(attributes, literal) for attributes, literal in messages]


class ImapFolderReader:
    """One read-only session on the configured folder. Use ``open()``, then the readers, then ``close()``."""

    def __init__(self, config: ImapMailbox, password: str, address: str, timeout: float):
        self.config = config
        self.password = password
        self.address = address
        self.timeout = timeout
        self.connection: imaplib.IMAP4 | None = None

    @property
    def label(self) -> str:
        scheme = "imaps" if self.config.tls else "imap"
        return f"{scheme}://{self.config.user}@{self.config.host}:{self.config.effective_port}/{self.config.folder}"

    def open(self) -> None:
        kind = _PinnedIMAP4_SSL if self.config.tls else _PinnedIMAP4
        try:
            self.connection = kind(self.config.host, self.config.effective_port, self.address, self.timeout)
        except (OSError, imaplib.IMAP4.error) as exc:
            raise ImapFailure("imap_failed", f"cannot connect to {self.label}: {exc}") from None
        try:
            self.connection.login(imap_quote(self.config.user), self.password)
        except imaplib.IMAP4.error as exc:
            raise ImapFailure("imap_login_failed", f"login to {self.label} refused: {_text(exc)}") from None
        except (OSError, ValueError) as exc:  # ValueError: a user name imaplib cannot send as ASCII
            raise ImapFailure("imap_failed", f"login to {self.label} failed: {exc}") from None
        status, data = self._command("EXAMINE", lambda: self.connection.select(imap_quote(self.config.folder),
                                                                               readonly=True))
        if status != "OK":
            raise ImapFailure("imap_failed", f"cannot open folder {self.config.folder!r} on {self.label}: "
                                             f"{_text(data)}")

    def search(self) -> list[int]:
        """The UIDs the configured criterion selects, oldest first."""
        status, data = self._command("UID SEARCH", lambda: self.connection.uid("SEARCH", self.config.search))
        if status != "OK":
            raise ImapFailure("imap_failed", f"search {self.config.search!r} refused by {self.label}: {_text(data)}")
        return sorted({int(uid) for line in data if line for uid in line.split()})

    def headers(self, uids: list[int]):
        """A MessageHeader per UID, in batches: only the Message-ID and size travel, never a body."""
        for start in range(0, len(uids), HEADER_BATCH):
            batch = ",".join(str(uid) for uid in uids[start:start + HEADER_BATCH])
            status, data = self._command("UID FETCH", lambda: self.connection.uid("FETCH", batch, HEADER_FETCH))
            if status != "OK":
                raise ImapFailure("imap_failed", f"header fetch refused by {self.label}: {_text(data)}")
            found = {}
            for attributes, literal in fetched_messages(data):
                uid, size = _UID.search(attributes), _SIZE.search(attributes)
                if uid and literal is not None:
                    found[int(uid.group(1))] = MessageHeader(
                        uid=int(uid.group(1)), size=int(size.group(1)) if size else None,
                        headers=email.message_from_bytes(literal, policy=email.policy.default))
            yield from (found[uid] for uid in sorted(found))

    def body(self, uid: int) -> bytes | None:
        """The message's raw bytes, or None when it vanished since the search (expunged by another client)."""
        status, data = self._command("UID FETCH", lambda: self.connection.uid("FETCH", str(uid), BODY_FETCH))
        if status != "OK":
            raise ImapFailure("imap_failed", f"fetch of UID {uid} refused by {self.label}: {_text(data)}")
        for attributes, literal in fetched_messages(data):
            found = _UID.search(attributes)
            if literal is not None and found and int(found.group(1)) == uid:
                return literal
        return None

    def close(self) -> None:
        if self.connection is None:
            return
        try:
            self.connection.logout()
        except (OSError, imaplib.IMAP4.error):
            pass  # the session is over either way
        self.connection = None

    def _command(self, name: str, call):
        try:
            return call()
        except (OSError, ValueError, imaplib.IMAP4.error) as exc:  # ValueError: a criterion that is not ASCII
            raise ImapFailure("imap_failed", f"{name} on {self.label} failed: {_text(exc)}") from None


def _text(value) -> str:
    """Server answers and imaplib errors hold bytes; an operator reads text."""
    if isinstance(value, Exception):
        value = value.args[0] if value.args else str(value)
    if isinstance(value, list):
        return " ".join(_text(v) for v in value if v is not None)
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)
