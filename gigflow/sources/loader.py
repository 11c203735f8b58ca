"""Read a YAML or JSON file of sources and validate every entry before anything is written."""

from __future__ import annotations

import codecs
import json
from pathlib import Path

import yaml
from pydantic import ValidationError

from gigflow.sources.config import SourceConfig, control_character_problems


class SourceFileError(ValueError):
    """A source file that cannot be imported; the message names each bad source and field."""


def _field_path(loc: tuple) -> str:
    parts: list[str] = []
    for item in loc:
        if isinstance(item, int):
            parts.append(f"[{item}]")
        elif item in ("href", "sitemap", "click", "feed", "ats", "mailbox") and parts and parts[-1].endswith("]"):
            continue  # pydantic's discriminator tag: the strategy's type is already in the data
        else:
            parts.append(("." if parts else "") + str(item))
    return "".join(parts)


def parse_sources(data, origin: str = "<data>") -> list[SourceConfig]:
    entries = data.get("sources") if isinstance(data, dict) else data
    if not isinstance(entries, list):
        raise SourceFileError(f"{origin}: expected a list of sources (or a mapping with a 'sources' list)")
    configs, problems, seen = [], [], set()
    for index, entry in enumerate(entries):
        name = entry.get("id") if isinstance(entry, dict) else None
        label = f"source {name!r}" if isinstance(name, str) and name else f"source #{index + 1}"
        problems += [f"{label}: {problem}" for problem in control_character_problems(entry)]
        try:
            config = SourceConfig.model_validate(entry)
        except ValidationError as exc:
            for err in exc.errors():
                msg = err["msg"].removeprefix("Value error, ")
                if err["type"] == "union_tag_invalid":
                    msg = f"unknown strategy {err['input'].get('type')!r}" if isinstance(err["input"], dict) else msg
                problems.append(f"{label}: {_field_path(err['loc']) or '(entry)'}: {msg}")
            continue
        if config.id in seen:
            problems.append(f"{label}: id: duplicate source id")
        seen.add(config.id)
        configs.append(config)
    if problems:
        raise SourceFileError(f"{origin}: nothing imported; fix these first:\n  " + "\n  ".join(problems))
    return configs


_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"), (codecs.BOM_UTF8, "utf-8-sig"),
         (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))


def decode_source_file(raw: bytes, origin: str) -> str:
    """UTF-8 (or UTF-16/32 with a byte order mark). Anything else is refused with the encoding it looks like:
    guessing would store a company name with the wrong letters."""
    encoding = next((name for bom, name in _BOMS if raw.startswith(bom)), "utf-8")
    try:
        return raw.decode(encoding)
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        guess = None
        try:
            from charset_normalizer import from_bytes

            best = from_bytes(raw).best()
            guess = best.encoding if best is not None else None
        except Exception:  # detection is a hint for the message only
            pass
        looks = f"; it looks like {guess}" if guess and guess.replace("_", "-") not in ("utf-8", encoding) else ""
        raise SourceFileError(f"{origin}: not {encoding.upper().removesuffix('-SIG')} (byte 0x{raw[exc.start]:02x} on "
                              f"line {line}){looks}: save the file as UTF-8") from None


DEFAULT_MAX_BYTES = 16 * 1024 * 1024
DEFAULT_MAX_NODES = 1_000_000


def load_source_file(path: str | Path, max_bytes: int = DEFAULT_MAX_BYTES,
                     max_nodes: int = DEFAULT_MAX_NODES) -> list[SourceConfig]:
    """Read, parse and validate a source file. At most ``max_bytes`` are read (``/dev/zero`` is refused, not
    read), and YAML anchors may expand to at most ``max_nodes`` nodes (an alias bomb is refused, not built)."""
    path = Path(path)
    try:
        with path.open("rb") as handle:
            raw = handle.read(max_bytes + 1)
    except OSError as exc:
        raise SourceFileError(f"{path}: cannot read: {exc.strerror}") from None
    if len(raw) > max_bytes:
        raise SourceFileError(f"{path}: larger than SOURCES_FILE_MAX_BYTES ({max_bytes} bytes): split it into "
                              "several files")
    text = decode_source_file(raw, str(path))
    kind = "JSON" if path.suffix.lower() == ".json" else "YAML"
    try:
        data = json.loads(text) if kind == "JSON" else bounded_yaml(text, max_nodes, str(path))
    except (ValueError, yaml.YAMLError) as exc:  # JSONDecodeError is a ValueError
        if isinstance(exc, SourceFileError):
            raise
        raise SourceFileError(f"{path}: not valid {kind}: {exc}") from None
    except RecursionError:
        raise SourceFileError(f"{path}: not usable {kind}: nested too deeply") from None
    return parse_sources(data, str(path))


def bounded_yaml(text: str, max_nodes: int, origin: str = "<data>"):
    """yaml.safe_load, but the composed document is measured first: with its aliases expanded it may hold at
    most ``max_nodes`` nodes. (Aliases share nodes, so building is cheap; everything that walks the data after,
    validation included, pays for every expansion: 900 bytes of nested aliases took 104 s.)"""
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        size = _expanded_size(node, {}, max_nodes)
        if size > max_nodes:
            raise SourceFileError(f"{origin}: YAML anchors and aliases expand to more than SOURCES_FILE_MAX_NODES "
                                  f"({max_nodes}) values: refused (an alias bomb?)")
        return loader.construct_document(node)
    finally:
        loader.dispose()


def _expanded_size(node, sizes: dict, limit: int) -> int:
    """Nodes in ``node`` with every alias expanded, counted once per distinct node (memoised), stopping past
    ``limit``."""
    known = sizes.get(id(node))
    if known is not None:
        return known
    sizes[id(node)] = limit + 1  # a node that contains itself expands without end
    if isinstance(node, yaml.MappingNode):
        children = [part for pair in node.value for part in pair]
    elif isinstance(node, yaml.SequenceNode):
        children = node.value
    else:
        children = []
    total = 1
    for child in children:
        total += _expanded_size(child, sizes, limit)
        if total > limit:
            break
    sizes[id(node)] = total
    return total
