"""mailbox strategy: job-alert e-mails from a Maildir, a folder of ``.eml`` files or an IMAP folder, through the
e-mail adapter.

Messages are read in ``start()``, never fetched through Scrapy: a local file is no fetch target, and IMAP is read
with ``imaplib`` (read-only, after the URL guard has passed its host). Each message is stored once: as the version
``mid:<Message-ID>`` (RFC 2392), or ``urn:sha256:<hash>`` when it has none; a message whose Message-ID or bytes are
already stored for the source is skipped (over IMAP before its body is fetched, when it has a Message-ID). Alerts
are not listings, so a job missing from later mail is not marked gone.
"""

from __future__ import annotations

import email
import email.parser
import email.policy
import hashlib
import mailbox
import os
from functools import cached_property
from pathlib import Path
from urllib.parse import quote

from scrapy.exceptions import CloseSpider
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet.threads import deferToThread

from gigflow.documents import DocumentPreparer
from gigflow.mail.imap import ImapFailure, ImapFolderReader
from gigflow.safety.guard import FetchGuard, UnsafeURL
from gigflow.spiders.base import SourceSpider
from gigflow.store import mailbox_failures as mailbox_store

MESSAGE_TYPE = "message/rfc822"


def message_files(folder: Path):
    """(name, raw bytes) of each message: a Maildir's new/ and cur/ messages, else every *.eml below ``folder``."""
    if (folder / "cur").is_dir() or (folder / "new").is_dir():
        box = mailbox.Maildir(folder, factory=None, create=False)
        for key in sorted(box.keys()):
            yield key, box.get_bytes(key)
    else:
        for path in sorted(folder.rglob("*.eml")):
            yield str(path.relative_to(folder)), path.read_bytes()


def message_url(message, sha256: str) -> str:
    message_id = " ".join(str(message.get("Message-ID", "")).split()).strip("<>")
    return f"mid:{quote(message_id, safe='@')}" if message_id else f"urn:sha256:{sha256}"


def failure_key(raw: bytes, sha256: str) -> str:
    """How a message that fails to read is remembered: its Message-ID when the headers can be read, else its hash."""
    try:
        headers = email.parser.BytesHeaderParser(policy=email.policy.compat32).parsebytes(raw)
        return message_url(headers, sha256)
    except Exception:
        return f"urn:sha256:{sha256}"


async def in_thread(call, *args):
    """Run blocking imaplib work off the reactor thread."""
    return await maybe_deferred_to_future(deferToThread(call, *args))


class MailboxSpider(SourceSpider):
    name = "mailbox"
    strategy_type = "mailbox"

    @cached_property
    def documents(self) -> DocumentPreparer:
        return DocumentPreparer.from_settings(self.crawler.settings)
    marks_gone = False

    async def start(self):
        self.limit = self.crawler.settings.getint("MAILBOX_MAX_MESSAGES")
        self.max_bytes = self.crawler.settings.getint("DOWNLOAD_MAXSIZE")
        self.stored_urls, self.stored_hashes = self.stored_messages()
        self.max_attempts = self.crawler.settings.getint("MAILBOX_MAX_ATTEMPTS")
        self.failures = self.failed_messages()
        self.read, self.limit_hit = 0, False
        if self.strategy.imap is not None:
            async for item in self.imap_items():
                yield item
            return
        folder = Path(self.strategy.path).expanduser()
        if not folder.is_dir():
            self.mark_incomplete(f"mailbox folder {str(folder)!r} does not exist", "mailbox_missing")
            return
        for name, raw in message_files(folder):
            item = self.new_message_item(name, raw)
            if self.limit_hit:
                return
            if item is not None:
                yield item

    def limit_reached(self) -> bool:
        """True (and the run incomplete) once MAILBOX_MAX_MESSAGES new messages were read: the rest wait."""
        if self.read < self.limit:
            return False
        self.limit_hit = True
        self.mark_incomplete(f"more new messages than MAILBOX_MAX_MESSAGES={self.limit}", "cap_reached")
        return True

    def is_stored(self, url: str) -> bool:
        if url in self.stored_urls:
            self.crawler.stats.inc_value("gigflow/messages_already_stored")
            return True
        return False

    def too_large(self, name: str, size: int | None) -> bool:
        if size is None or size <= self.max_bytes:
            return False
        self.logger.warning("message %s is larger than DOWNLOAD_MAXSIZE; skipped", name)
        self.crawler.stats.inc_value("gigflow/messages_too_large")
        return True

    def new_message_item(self, name: str, raw: bytes, *, seen: bool = False):
        """The item of one message not stored yet, else None. ``seen``: already counted (IMAP counts headers)."""
        if not seen:
            self.crawler.stats.inc_value("gigflow/messages_seen")
        sha256 = hashlib.sha256(raw).hexdigest()
        if self.too_large(name, len(raw)):
            return None
        key = failure_key(raw, sha256)
        if self.given_up(key):
            return None
        try:
            message = email.message_from_bytes(raw, policy=email.policy.default)
            url = message_url(message, sha256)
            if url in self.stored_urls or sha256 in self.stored_hashes:
                self.crawler.stats.inc_value("gigflow/messages_already_stored")
                return None
            if self.limit_reached():
                return None
            item = self.message_item(name, raw, message, url)
        except Exception as exc:  # one bad message (1,000 nested parts, say) never blocks the mailbox
            self.record_failure(name, key, exc)
            return None
        if key in self.failures:
            self.clear_failure(key)
        self.read += 1
        self.stored_urls.add(url)
        self.stored_hashes.add(sha256)
        return item

    def given_up(self, key: str) -> bool:
        """A message that failed MAILBOX_MAX_ATTEMPTS runs is skipped (and listed by `scrapy sources list`)."""
        if self.failures.get(key, 0) < self.max_attempts:
            return False
        self.crawler.stats.inc_value("gigflow/messages_given_up")
        return True

    def record_failure(self, name: str, key: str, exc: Exception) -> None:
        error = f"{exc.__class__.__name__}: {exc}"[:500]
        with self.context.pool.connection() as conn:
            attempts = mailbox_store.record_failure(conn, self.source_id, key, error)
        self.failures[key] = attempts
        self.crawler.stats.inc_value("gigflow/messages_failed")
        self.logger.warning("message %s (%s) could not be read (attempt %d of %d): %s; skipped", name, key,
                            attempts, self.max_attempts, error)

    def clear_failure(self, key: str) -> None:
        with self.context.pool.connection() as conn:
            mailbox_store.clear_failures(conn, self.source_id, [key])
        self.failures.pop(key, None)

    def failed_messages(self) -> dict[str, int]:
        with self.context.pool.connection() as conn:
            return mailbox_store.failures(conn, self.source_id)

    # -- IMAP ---------------------------------------------------------------------------------------------------

    async def imap_items(self):
        """New messages of the configured IMAP folder. A refused host, a missing password, a refused login or a
        broken session ends the run with a reason naming it (outcome ``incomplete:imap_...``), never a crash."""
        config = self.strategy.imap
        settings = self.crawler.settings
        target = f"imap{'s' if config.tls else ''}://{config.host}:{config.effective_port}"
        try:
            addresses = FetchGuard.from_settings(settings).check_host(config.host, config.effective_port, target)
        except UnsafeURL as exc:
            self.fail_run("imap_refused", str(exc))
        password = os.environ.get(config.password_env)
        if not password:
            self.fail_run("imap_password_missing",
                          f"the IMAP password variable {config.password_env} is not set for {target}")
        reader = ImapFolderReader(config, password, addresses[0], settings.getfloat("MAILBOX_IMAP_TIMEOUT"))
        try:
            await in_thread(reader.open)
            uids = await in_thread(reader.search)
            headers = await in_thread(lambda: list(reader.headers(uids)))
            self.crawler.stats.set_value("gigflow/imap_messages_listed", len(uids))
            for header in headers:
                name = f"{reader.label} UID {header.uid}"
                self.crawler.stats.inc_value("gigflow/messages_seen")
                # Skipped before the body travels: a known Message-ID, or a size over the limit.
                url = message_url(header.headers, "") if header.headers.get("Message-ID") else None
                if (url and (self.is_stored(url) or self.given_up(url))) or self.too_large(name, header.size):
                    continue
                if self.limit_reached():
                    return
                raw = await in_thread(reader.body, header.uid)
                if raw is None:
                    self.logger.warning("message %s vanished before it was read", name)
                    continue
                item = self.new_message_item(name, raw, seen=True)
                if item is not None:
                    yield item
        except ImapFailure as exc:
            self.fail_run(exc.reason, str(exc))
        finally:
            await in_thread(reader.close)

    def fail_run(self, reason: str, message: str):
        """End the run: nothing more can be read. The message goes to the log and into the run's stats."""
        self.logger.error("mailbox run failed: %s", message)
        self.crawler.stats.set_value("gigflow/mailbox_error", message)
        self.mark_incomplete(message, reason)
        raise CloseSpider(reason)

    def stored_messages(self) -> tuple[set[str], set[str]]:
        rows = self.context.stored_messages(MESSAGE_TYPE)
        return {row.url for row in rows}, {row.sha256 for row in rows}

    def message_item(self, name: str, raw: bytes, message, url: str):
        try:
            # The one preparation path, as for every page: the message format picks its HTML (else text) body;
            # the strategy and the run's noise filter apply.
            prepared = self.documents.prepare(raw, url, content_type=MESSAGE_TYPE, strategy=self.strategy,
                                              noise_filter=self.noise_filter)
        except Exception as exc:  # an odd message loses its Markdown, never the crawl or its bytes
            self.logger.warning("message %s could not be prepared: %s", name, exc)
            prepared = None
        result = self.extract(raw, url=url, content_type=MESSAGE_TYPE)
        self.crawler.stats.inc_value("gigflow/messages_read")
        return self.page_item(url, raw, result, prepared=prepared, content_type=MESSAGE_TYPE)
