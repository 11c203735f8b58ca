"""Every project setting read the way the code reads it, before a crawl starts: a bad ``-s NAME=VALUE`` is one
line naming the setting and what it expects, never a traceback from deep inside a component."""

from __future__ import annotations

from gigflow import settings as defaults

_READERS = {bool: ("getbool", "true or false"), int: ("getint", "a whole number"),
            float: ("getfloat", "a number"), dict: ("getdict", "a JSON object"), list: ("getlist", "a list")}


def settings_problem(settings) -> str | None:
    """Why ``settings`` cannot run a crawl, or None. Types come from the defaults in gigflow.settings."""
    if not set(defaults.SPIDER_MODULES) <= set(settings.getlist("SPIDER_MODULES")):
        # Outside the checkout Scrapy finds our commands (an entry point) but not our settings: a crawl would run
        # with Scrapy's defaults, without politeness, the fetch guard or a database.
        return ("gigflow's settings are not loaded here (no scrapy.cfg in this folder or above it): run the command "
                "in the gigflow checkout, or set SCRAPY_SETTINGS_MODULE=gigflow.settings")
    for name in dir(defaults):
        if not name.isupper():
            continue
        default = getattr(defaults, name)
        reader = _READERS.get(type(default))
        if reader is None:
            continue
        method, expected = reader
        try:
            getattr(settings, method)(name)
        except (TypeError, ValueError) as exc:
            given = settings.get(name)
            return f"setting {name}: expected {expected}, got {str(given)[:80]!r} ({str(exc)[:120]})"
    try:
        from gigflow.politeness.keys import Policies

        Policies.from_settings(settings)
    except Exception as exc:  # PolicyError, or a policy that is not a mapping at all
        message = str(exc)
        if "POLITENESS" not in message:
            message = f"POLITENESS_DOMAIN_POLICIES / POLITENESS_PROVIDER_POLICIES: {message or type(exc).__name__}"
        return f"setting {message}"
    return None
