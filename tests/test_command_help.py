"""Every command's --help reads as written: Scrapy's help formatter turns any help line that ends with a colon into
a title-cased, underlined heading, so a help text wrapped right after "(default:" came out as a false heading."""

import argparse
from importlib.metadata import entry_points

import pytest
from scrapy.commands import ScrapyHelpFormatter
from scrapy.settings import Settings

HEADINGS = {"Usage", "Options", "Global Options", "Positional Arguments"}
COMMANDS = sorted(entry_points(group="scrapy.commands"), key=lambda e: e.name)


def help_text(entry) -> str:
    command = entry.load()()
    command.settings = Settings()
    parser = argparse.ArgumentParser(formatter_class=ScrapyHelpFormatter, conflict_handler="resolve",
                                     usage=f"scrapy {entry.name} {command.syntax()}", description=command.long_desc())
    command.add_options(parser)
    return parser.format_help()


@pytest.mark.parametrize("entry", COMMANDS, ids=[e.name for e in COMMANDS])
def test_a_commands_help_has_no_false_headings(entry):
    lines = help_text(entry).splitlines()
    headings = {lines[i - 1].strip() for i, line in enumerate(lines) if i and line and set(line) <= set("=-")}
    assert headings <= HEADINGS, headings - HEADINGS
