"""`scrapy db backup` and `scrapy db restore FILE`: pg_dump's custom format, optionally encrypted with a key file,
the newest N kept; restored only into an empty database.

pg_dump and pg_restore must be at least the server's major version (pg_dump refuses a newer server; pg_restore
refuses a newer archive). The tools are looked for where each kind of server keeps them: the embedded server's
own (pgserver's pginstall/bin), /usr/lib/postgresql/<major>/bin (Debian, Ubuntu), then PATH; the same major as
the server first, else the newest newer one.

Encryption: AES-256-GCM in 1 MiB chunks (memory stays flat however big the dump), each chunk's nonce and
associated data bound to its index and to whether it is the last, so a reordered, truncated or altered file fails
to decrypt instead of restoring something else. The key is the sha256 of the key file (make one with
`head -c 32 /dev/urandom > backup.key`; at least 32 bytes)."""

from __future__ import annotations

import hashlib
import os
import re
import secrets
import shutil
import struct
import subprocess
import tempfile
from datetime import datetime, timezone
from pathlib import Path

from gigflow.db import queries

MAGIC = b"GIGFLOW-BACKUP-AESGCM-1\n"
CHUNK = 1 << 20
PREFIX = "gigflow-"
_VERSION = re.compile(r"\(PostgreSQL\) (\d+)")


class BackupError(Exception):
    pass


# tools

def _tool_major(path: str) -> int | None:
    try:
        out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    match = _VERSION.search(out)
    return int(match.group(1)) if match else None


def _candidates(name: str, major: int) -> list[str]:
    found = []
    try:
        import pgserver

        found.append(str(Path(pgserver.__file__).parent / "pginstall" / "bin" / name))
    except ImportError:
        pass
    found.append(f"/usr/lib/postgresql/{major}/bin/{name}")
    found += sorted((str(p) for p in Path("/usr/lib/postgresql").glob(f"*/bin/{name}")), reverse=True)
    on_path = shutil.which(name)
    if on_path:
        found.append(on_path)
    return [p for p in dict.fromkeys(found) if os.access(p, os.X_OK)]


def find_tool(name: str, server_major: int) -> str:
    """The ``name`` binary (pg_dump, pg_restore) fit for a server of this major version."""
    versions = [(path, _tool_major(path)) for path in _candidates(name, server_major)]
    exact = [path for path, major in versions if major == server_major]
    if exact:
        return exact[0]
    newer = sorted(((major, path) for path, major in versions if major and major > server_major), reverse=True)
    if newer:
        return newer[0][1]
    seen = ", ".join(f"{path} ({major})" for path, major in versions) or "none"
    raise BackupError(f"no {name} of PostgreSQL {server_major} or newer found (seen: {seen}); install the client "
                      f"tools of the server's version (e.g. apt-get install postgresql-client-{server_major})")


def _server(url: str) -> tuple[int, str, dict]:
    """(major version, database name, environment with the password) for the URL."""
    from psycopg.conninfo import conninfo_to_dict

    from gigflow.db.connection import connect  # short timeout; a wrong URL is one line, not a traceback

    with connect(url) as conn:
        num = queries.server_version_num(conn)
    params = conninfo_to_dict(url)
    env = {**os.environ}
    if params.get("password"):
        env["PGPASSWORD"] = str(params["password"])  # not on the command line, where ps would show it
    return num // 10000, str(params.get("dbname") or ""), env


def _conninfo_without_password(url: str) -> str:
    from psycopg.conninfo import conninfo_to_dict, make_conninfo

    params = conninfo_to_dict(url)
    params.pop("password", None)
    return make_conninfo(**params)


# encryption

def read_key(key_file: Path) -> bytes:
    try:
        raw = Path(key_file).read_bytes()
    except OSError as exc:
        raise BackupError(f"key file {key_file}: {exc.strerror or exc}") from None
    if len(raw) < 32:  # every byte counts (random bytes may well be whitespace)
        raise BackupError(f"key file {key_file} holds {len(raw)} bytes: use at least 32 random bytes "
                          "(head -c 32 /dev/urandom > backup.key)")
    return hashlib.sha256(raw).digest()


def encrypt(source, target, key: bytes) -> None:
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    aead, prefix = AESGCM(key), secrets.token_bytes(8)
    target.write(MAGIC + prefix)
    index, chunk = 0, source.read(CHUNK)
    while True:
        following = source.read(CHUNK)
        last = not following
        sealed = aead.encrypt(prefix + struct.pack(">I", index), chunk, struct.pack(">I?", index, last))
        target.write(struct.pack(">I", len(sealed)) + sealed)
        if last:
            return
        index, chunk = index + 1, following


def decrypt(source, target, key: bytes) -> None:
    from cryptography.exceptions import InvalidTag
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    if source.read(len(MAGIC)) != MAGIC:
        raise BackupError("not an encrypted gigflow backup (or an unencrypted one: leave out --key-file)")
    aead, prefix, index = AESGCM(key), source.read(8), 0
    while True:
        head = source.read(4)
        if len(head) < 4:
            raise BackupError("the backup is truncated (its last chunk is missing)")
        sealed = source.read(struct.unpack(">I", head)[0])
        for last in (False, True):
            try:
                plain = aead.decrypt(prefix + struct.pack(">I", index), sealed, struct.pack(">I?", index, last))
                break
            except InvalidTag:
                continue
        else:
            raise BackupError("the backup does not decrypt with this key (wrong key file, or the file was altered)")
        target.write(plain)
        if last:
            return
        index += 1


def is_encrypted(path: Path) -> bool:
    with open(path, "rb") as handle:
        return handle.read(len(MAGIC)) == MAGIC


# backup and restore

def backup(url: str, folder: Path, *, key_file: Path | None = None, keep: int = 0) -> dict:
    """Dump the database at ``url`` into ``folder`` (custom format, encrypted when a key file is given); keep the
    newest ``keep`` backups of this database (0: all). Returns the file, its size and the removed files."""
    key = read_key(key_file) if key_file else None
    major, dbname, env = _server(url)
    pg_dump = find_tool("pg_dump", major)
    folder = Path(folder)
    try:  # before the dump: a folder that cannot take the file costs nothing
        folder.mkdir(parents=True, exist_ok=True)
        partial = tempfile.TemporaryDirectory(dir=folder, prefix=".partial-")
    except OSError as exc:
        raise BackupError(f"cannot write a backup into {folder}: {_why(exc)}") from None
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S%fZ")
    safe_name = re.sub(r"[^A-Za-z0-9_.-]", "_", dbname) or "db"
    final = folder / f"{PREFIX}{safe_name}-{stamp}.dump{'.enc' if key else ''}"
    try:
        with partial as tmp:
            _dump(pg_dump, url, env, key, Path(tmp), final)
    except OSError as exc:  # the disk filled up, the folder went away
        raise BackupError(f"cannot write a backup into {folder}: {_why(exc)}") from None
    removed = []
    if keep > 0:
        mine = sorted(folder.glob(f"{PREFIX}{safe_name}-*.dump*"), key=lambda p: p.name, reverse=True)
        for old in mine[keep:]:
            old.unlink()
            removed.append(str(old))
    return {"file": str(final), "bytes": final.stat().st_size, "encrypted": bool(key), "tool": pg_dump,
            "removed": removed}


def _dump(pg_dump: str, url: str, env: dict, key: bytes | None, tmp: Path, final: Path) -> None:
    plain = tmp / "dump"
    done = subprocess.run([pg_dump, "--format=custom", f"--file={plain}",
                           f"--dbname={_conninfo_without_password(url)}"], env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise BackupError(f"pg_dump ({pg_dump}) failed: {done.stderr.strip()[-2000:]}")
    if key:
        sealed = tmp / "dump.enc"
        with open(plain, "rb") as source, open(sealed, "wb") as target:
            encrypt(source, target, key)
        plain = sealed
    os.chmod(plain, 0o600)
    os.replace(plain, final)  # a backup file is complete or absent


def _why(exc: OSError) -> str:
    """An OSError's reason in words, without the path (the message names it once)."""
    if isinstance(exc, (FileExistsError, NotADirectoryError)):
        return "a file is in the way (not a folder)"
    return exc.strerror or type(exc).__name__


def restore(path: Path, url: str, *, key_file: Path | None = None) -> dict:
    """Restore a backup into the database at ``url``, which must be empty (no tables)."""
    from gigflow.db.connection import connect

    path = Path(path)
    if not path.is_file():
        raise BackupError(f"{path}: no such backup file")
    encrypted = is_encrypted(path)
    if encrypted and not key_file:
        raise BackupError(f"{path} is encrypted: give its --key-file")
    key = read_key(key_file) if encrypted else None
    major, dbname, env = _server(url)
    with connect(url) as conn:
        tables = queries.user_table_count(conn)
    if tables:
        raise BackupError(f"database {dbname!r} is not empty ({tables} table(s)): restore into a new, empty database "
                          f"(createdb NAME; GIGFLOW_DATABASE_URL=... or --to URL)")
    pg_restore = find_tool("pg_restore", major)
    with tempfile.TemporaryDirectory(prefix="gigflow-restore-") as tmp:
        archive = path
        if key:
            archive = Path(tmp) / "dump"
            with open(path, "rb") as source, open(archive, "wb") as target:
                decrypt(source, target, key)
        done = subprocess.run([pg_restore, "--exit-on-error", "--no-owner", "--no-privileges",
                               f"--dbname={_conninfo_without_password(url)}", str(archive)],
                              env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise BackupError(f"pg_restore ({pg_restore}) failed: {done.stderr.strip()[-2000:]}")
    return {"database": dbname, "tool": pg_restore}


def default_folder(settings) -> Path:
    from gigflow.db.connection import data_dir

    return Path(settings.get("BACKUP_DIR") or data_dir() / "backups")
