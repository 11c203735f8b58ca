"""The fetch guard: the URL policy (SSRF defence) every URL and redirect hop passes, and the resolver that checks
each address again at connection time. The downloader middlewares in ``gigflow.middlewares.safe_fetch`` adapt it.
"""
