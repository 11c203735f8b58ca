"""The public ATS providers. Each module exposes its adapter, `listing_url(board, base=...)`,
`detail_url(...)` and `next_page(payload, url)`, so spiders build requests without provider-specific parsing.
Optional module attributes: `origin(board)` (the board's own host, for boards on a tenant or employer host),
`first_page(board, base, page_size)` (a first request other than a GET of `listing_url`), `FETCH_DETAILS`
(listings lack the text: each job's `detail_url(board, job, base)` is fetched too) and `PAGING = "post-offset"`
(Workday: POSTed pages, see `next_offset_page`)."""

from __future__ import annotations

from types import ModuleType

from gigflow.adapters.ats import (ashby, bamboohr, breezy, greenhouse, jibe, lever, manatal, personio, pinpoint,
                                  radancy, recruitee, smartrecruiters, teamtailor, workable, workday)

PROVIDERS: dict[str, ModuleType] = {
    "greenhouse": greenhouse,
    "lever": lever,
    "recruitee": recruitee,
    "smartrecruiters": smartrecruiters,
    "workable": workable,
    "ashby": ashby,
    "workday": workday,
    "personio": personio,
    "teamtailor": teamtailor,
    "bamboohr": bamboohr,
    "breezy": breezy,
    "pinpoint": pinpoint,
    "manatal": manatal,
    "jibe": jibe,
    "radancy": radancy,
}

ADAPTERS = {
    "greenhouse": greenhouse.GreenhouseAdapter(),
    "lever": lever.LeverAdapter(),
    "recruitee": recruitee.RecruiteeAdapter(),
    "smartrecruiters": smartrecruiters.SmartRecruitersAdapter(),
    "workable": workable.WorkableAdapter(),
    "ashby": ashby.AshbyAdapter(),
    "workday": workday.WorkdayAdapter(),
    "personio": personio.PersonioAdapter(),
    "teamtailor": teamtailor.TeamtailorAdapter(),
    "bamboohr": bamboohr.BambooHrAdapter(),
    "breezy": breezy.BreezyAdapter(),
    "pinpoint": pinpoint.PinpointAdapter(),
    "manatal": manatal.ManatalAdapter(),
    "jibe": jibe.JibeAdapter(),
    "radancy": radancy.RadancyAdapter(),
}


# The providers' public hosts, as their modules define them; ATS_BASE_URLS overrides any of them ("{board}" is
# replaced by the board id).
PUBLIC_BASE_URLS = ({name: module.DEFAULT_BASE for name, module in PROVIDERS.items() if hasattr(module, "DEFAULT_BASE")}
                    | {"lever-eu": lever.EU_BASE})


def base_url(provider_key: str, board_id: str, region: str = "us", overrides: dict | None = None) -> str:
    """The base URL a board is read from: the provider's public host (Lever's EU host for region "eu"; the
    tenant's or employer's host for boards that live there), unless ``overrides`` (the ATS_BASE_URLS setting)
    names another."""
    key = "lever-eu" if provider_key == "lever" and region == "eu" else provider_key
    if overrides and key in overrides:
        return overrides[key].replace("{board}", board_id).rstrip("/")
    module = provider(provider_key)
    if hasattr(module, "origin"):
        return module.origin(board_id).rstrip("/")
    return PUBLIC_BASE_URLS[key].replace("{board}", board_id).rstrip("/")


def provider(key: str) -> ModuleType:
    """The provider module for a parser key; a clear error names the known keys."""
    try:
        return PROVIDERS[key]
    except KeyError:
        raise KeyError(f"unknown ATS provider {key!r}; known: {', '.join(sorted(PROVIDERS))}") from None


__all__ = ["ADAPTERS", "PROVIDERS", "PUBLIC_BASE_URLS", "base_url", "provider", *PROVIDERS]
