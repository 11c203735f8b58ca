"""The fetch guard: the URL policy (SSRF defence) every URL and redirect hop passes, and the resolver that checks
each address again at connection time, and the log filter that keeps secrets out of every log line (its
extension). The downloader middlewares in ``gigflow.middlewares.safe_fetch`` adapt it.
"""
