"""Spiders decide what to fetch for one source and one strategy. They never parse job fields themselves."""
