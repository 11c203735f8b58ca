"""The five public ATS providers. Each module exposes its adapter, `listing_url(board, base=...)`,
`detail_url(...)` and `next_page(payload, url)`, so spiders build requests without provider-specific parsing."""

from __future__ import annotations

from types import ModuleType

from gigflow.adapters.ats import greenhouse, lever, recruitee, smartrecruiters, workable

PROVIDERS: dict[str, ModuleType] = {
    "greenhouse": greenhouse,
    "lever": lever,
    "recruitee": recruitee,
    "smartrecruiters": smartrecruiters,
    "workable": workable,
}

ADAPTERS = {
    "greenhouse": greenhouse.GreenhouseAdapter(),
    "lever": lever.LeverAdapter(),
    "recruitee": recruitee.RecruiteeAdapter(),
    "smartrecruiters": smartrecruiters.SmartRecruitersAdapter(),
    "workable": workable.WorkableAdapter(),
}


# The providers' public hosts, as their modules define them; ATS_BASE_URLS overrides any of them ("{board}" is
# replaced by the board id).
PUBLIC_BASE_URLS = {name: module.DEFAULT_BASE for name, module in PROVIDERS.items()} | {"lever-eu": lever.EU_BASE}


def base_url(provider_key: str, board_id: str, region: str = "us", overrides: dict | None = None) -> str:
    """The base URL a board is read from: the provider's public host (Lever's EU host for region "eu"), unless
    ``overrides`` (the ATS_BASE_URLS setting) names another."""
    bases = {**PUBLIC_BASE_URLS, **(overrides or {})}
    key = "lever-eu" if provider_key == "lever" and region == "eu" else provider_key
    return bases[key].replace("{board}", board_id).rstrip("/")


def provider(key: str) -> ModuleType:
    """The provider module for a parser key; a clear error names the known keys."""
    try:
        return PROVIDERS[key]
    except KeyError:
        raise KeyError(f"unknown ATS provider {key!r}; known: {', '.join(sorted(PROVIDERS))}") from None


__all__ = ["ADAPTERS", "PROVIDERS", "PUBLIC_BASE_URLS", "base_url", "greenhouse", "lever", "provider", "recruitee", "smartrecruiters", "workable"]
