"""Downloader middlewares: how requests are made (politeness, safety, conditional GET, preparation)."""
