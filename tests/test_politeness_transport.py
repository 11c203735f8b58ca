"""Every wire request passes the limiter: a request re-sent after a kept-alive connection was reset waits for
the key's backoff and counts as an error, instead of being re-sent at once by the transport."""

from scripted_server import site, source
from gigflow.sources.loader import parse_sources
from gigflow.sources.repository import import_sources
from helpers import crawl, last_run
from reset_server import ResetSecondRequestServer

BACKOFF = 1.0
INTERVAL = 0.3


def _route(path: str):
    reply = site("/r", jobs=2)(path, {})
    return reply.status, reply.headers["Content-Type"], reply.body


def test_a_request_re_sent_after_a_connection_reset_waits_at_the_limiter_and_backs_off(pool):
    with ResetSecondRequestServer(_route) as server:
        import_sources(pool, parse_sources({"sources": [source("reset", server.url, "/r")]}))
        crawl("href", "reset", f"POLITENESS_MIN_INTERVAL={INTERVAL}", f"POLITENESS_BACKOFF_BASE={BACKOFF}",
              "POLITENESS_BACKOFF_JITTER=0", "RETRY_TIMES=3")
        arrivals = list(server.arrivals)
    resets = [i for i, a in enumerate(arrivals) if a.reset]
    assert resets, arrivals  # the crawl did reuse kept-alive connections
    for i in resets:
        resent = next(a for a in arrivals[i + 1:] if a.path == arrivals[i].path)
        # The re-sent request waited out the key's backoff (the transport's own retry came ~2 ms later).
        assert resent.time - arrivals[i].time >= BACKOFF - 0.05, arrivals
    answered = [a.path for a in arrivals if not a.reset]
    assert {"/r/", "/r/jobs/0.html", "/r/jobs/1.html"} <= set(answered)
    run = last_run(pool)
    assert run["outcome"] == "finished"
    assert run["stats"]["gigflow/politeness/backoffs"] == len(resets)  # each reset counted as an error
