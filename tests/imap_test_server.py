"""A small IMAP4rev1 server on 127.0.0.1 for the tests: one user, one folder of messages, plain TCP.

It speaks the subset the mailbox spider uses: CAPABILITY, LOGIN, SELECT/EXAMINE, UID SEARCH ALL, UID FETCH of
UID, RFC822.SIZE, BODY.PEEK[HEADER.FIELDS (...)], BODY.PEEK[]/BODY[] and RFC822, NOOP and LOGOUT. ``commands``
logs every command a client sent, so tests can see what was fetched; ``drop_connection_at`` breaks a session.
"""

from __future__ import annotations

import re
import socketserver
import threading
from email.parser import BytesHeaderParser
from pathlib import Path

_TOKEN = re.compile(rb'"((?:[^"\\]|\\.)*)"|(\S+)')


def _arguments(text: bytes) -> list[bytes]:
    """Atoms and quoted strings of a command line (no literals: the client under test sends none)."""
    return [re.sub(rb"\\(.)", rb"\1", quoted) if quoted is not None else atom
            for quoted, atom in ((m.group(1), m.group(2)) for m in _TOKEN.finditer(text))]


def _crlf(raw: bytes) -> bytes:
    """Messages travel with CRLF line ends, whatever the file on disk used."""
    return re.sub(rb"\r?\n", b"\r\n", raw)


def _uid_set(text: str, uids: list[int]) -> list[int]:
    """The UIDs of a sequence set such as ``1,3:5,7:*`` that exist in the folder."""
    highest = max(uids, default=0)
    wanted: set[int] = set()
    for part in text.split(","):
        low, _, high = part.partition(":")
        start = highest if low == "*" else int(low)
        end = start if not high else highest if high == "*" else int(high)
        wanted.update(range(min(start, end), max(start, end) + 1))
    return [uid for uid in uids if uid in wanted]


class ImapHandler(socketserver.StreamRequestHandler):
    server: "ImapServer"

    def send(self, line: bytes) -> None:
        self.wfile.write(line + b"\r\n")

    def handle(self) -> None:
        self.user = None
        self.selected = False
        try:
            self.send(b"* OK [CAPABILITY IMAP4rev1] gigflow test IMAP server ready")
            while line := self.rfile.readline():
                if self.answer(line) == "logout":
                    return
        except ConnectionError:
            pass  # a client that hung up (or spoke TLS to this plain server)

    def answer(self, line: bytes):
        tag, _, rest = line.rstrip(b"\r\n").partition(b" ")
        command, _, arguments = rest.partition(b" ")
        command = command.upper()
        self.server.commands.append(rest.decode("utf-8", "replace"))
        if command == b"UID":
            command, _, arguments = arguments.partition(b" ")
            command = b"UID " + command.upper()
        handler = getattr(self, "do_" + command.decode("ascii", "replace").replace(" ", "_"), None)
        if handler is None:
            return self.send(tag + b" BAD unknown or unsupported command")
        try:
            return handler(tag, arguments)
        except (ValueError, UnicodeError):
            return self.send(tag + b" BAD malformed arguments")

    def do_CAPABILITY(self, tag, arguments):
        self.send(b"* CAPABILITY IMAP4rev1")
        self.send(tag + b" OK CAPABILITY completed")

    def do_NOOP(self, tag, arguments):
        self.send(tag + b" OK NOOP completed")

    def do_LOGOUT(self, tag, arguments):
        self.send(b"* BYE logging out")
        self.send(tag + b" OK LOGOUT completed")
        return "logout"

    def do_LOGIN(self, tag, arguments):
        parts = _arguments(arguments)
        if len(parts) == 2 and (parts[0].decode(), parts[1].decode()) == (self.server.user, self.server.password):
            self.user = parts[0]
            self.send(tag + b" OK [CAPABILITY IMAP4rev1] LOGIN completed")
        else:
            self.send(tag + b" NO [AUTHENTICATIONFAILED] Invalid credentials")

    def do_SELECT(self, tag, arguments, read_only=False):
        if self.user is None:
            return self.send(tag + b" NO not logged in")
        folder = (_arguments(arguments) or [b""])[0].decode()
        if folder.upper() != self.server.folder.upper():
            self.selected = False
            return self.send(tag + b" NO [NONEXISTENT] no such mailbox")
        self.selected = True
        self.send(b"* FLAGS (\\Answered \\Flagged \\Deleted \\Seen \\Draft)")
        self.send(b"* %d EXISTS" % len(self.server.messages))
        self.send(b"* 0 RECENT")
        self.send(b"* OK [UIDVALIDITY 1] UIDs valid")
        self.send(b"* OK [UIDNEXT %d] next UID" % (max(self.server.messages, default=0) + 1))
        mode = b"READ-ONLY" if read_only else b"READ-WRITE"
        self.send(tag + b" OK [" + mode + b"] " + (b"EXAMINE" if read_only else b"SELECT") + b" completed")

    def do_EXAMINE(self, tag, arguments):
        return self.do_SELECT(tag, arguments, read_only=True)

    def do_UID_SEARCH(self, tag, arguments):
        if not self.selected:
            return self.send(tag + b" NO no mailbox selected")
        if arguments.strip().upper() != b"ALL":
            return self.send(tag + b" BAD this test server searches ALL only")
        self.send(b"* SEARCH " + b" ".join(b"%d" % uid for uid in self.server.messages))
        self.send(tag + b" OK SEARCH completed")

    def do_UID_FETCH(self, tag, arguments):
        if not self.selected:
            return self.send(tag + b" NO no mailbox selected")
        uid_text, _, items = arguments.decode("ascii").partition(" ")
        items = items.strip().strip("()").upper()
        uids = list(self.server.messages)
        for uid in _uid_set(uid_text, uids):
            raw = self.server.messages[uid]
            head = b"%d FETCH (UID %d" % (uids.index(uid) + 1, uid)
            if "RFC822.SIZE" in items:
                head += b" RFC822.SIZE %d" % len(raw)
            fields = re.search(r"HEADER\.FIELDS \(([^)]*)\)", items)
            if fields:
                names = fields.group(1).split()
                headers = BytesHeaderParser().parsebytes(raw)
                literal = b"".join(f"{name}: {value}\r\n".encode() for name, value in headers.items()
                                   if name.upper() in names) + b"\r\n"
                head += b" BODY[HEADER.FIELDS (%s)] {%d}" % (" ".join(names).encode(), len(literal))
            elif uid in self.server.drop_connection_at and ("BODY" in items or "RFC822" in items):
                return "logout"  # the connection breaks mid-session, without an answer
            elif "BODY.PEEK[]" in items or "BODY[]" in items:
                literal, head = raw, head + b" BODY[] {%d}" % len(raw)
            elif re.search(r"RFC822(?![.\w])", items):
                literal, head = raw, head + b" RFC822 {%d}" % len(raw)
            else:
                self.send(b"* " + head + b")")
                continue
            self.wfile.write(b"* " + head + b"\r\n" + literal)
            self.send(b")")
        self.send(tag + b" OK FETCH completed")


class ImapServer(socketserver.ThreadingTCPServer):
    """Serve the ``.eml`` files of ``folder_path`` (sorted by name: UIDs 1, 2, ...) as the mailbox ``folder``."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, folder_path: Path, *, user: str, password: str, folder: str = "INBOX",
                 host: str = "127.0.0.1", port: int = 0):
        super().__init__((host, port), ImapHandler)
        files = sorted(Path(folder_path).glob("*.eml"))
        self.messages = {uid: _crlf(path.read_bytes()) for uid, path in enumerate(files, start=1)}
        self.user, self.password, self.folder = user, password, folder
        self.commands: list[str] = []
        self.drop_connection_at: set[int] = set()  # UIDs whose body fetch breaks the connection
        self.thread = threading.Thread(target=self.serve_forever, daemon=True)

    @property
    def port(self) -> int:
        return self.server_address[1]

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.shutdown()
        self.server_close()
