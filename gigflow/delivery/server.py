"""Start the read API under uvicorn: loopback by default; other addresses answer only their own Host names."""

from __future__ import annotations

import logging
import threading

from gigflow.safety.loopback import LOCAL_HOSTS, is_loopback

logger = logging.getLogger(__name__)


def build(settings, host: str, pool):
    from gigflow.delivery.app import create_app

    allowed = LOCAL_HOSTS if is_loopback(host) else None  # the review app's rule
    return create_app(settings, pool, allowed_hosts=allowed)


def _index_loop(pool, interval: float, stop: threading.Event) -> None:
    from gigflow.delivery.indexer import catch_up

    while not stop.is_set():
        try:
            catch_up(pool)
        except Exception:  # a database hiccup must not end the loop; the next turn retries
            logger.exception("indexing the read model failed; retrying in %s s", interval)
        stop.wait(interval)


def serve(settings, *, host: str, port: int) -> None:
    import uvicorn

    from gigflow.db import pool_from_settings

    pool = pool_from_settings(settings)  # the settings' database, connected and migrated before announcing
    app = build(settings, host, pool)
    stop = threading.Event()
    interval = settings.getfloat("API_INDEX_INTERVAL")
    if interval > 0:
        threading.Thread(target=_index_loop, args=(pool, interval, stop), daemon=True, name="api-index").start()
    shown = f"[{host}]" if ":" in host else host
    print(f"gigflow read API on http://{shown}:{port}/api/v1/ (OpenAPI: /api/v1/openapi.json; Ctrl-C stops)",
          flush=True)
    try:
        uvicorn.run(app, host=host, port=port, log_level=settings.get("API_LOG_LEVEL") or "warning")
    finally:
        stop.set()
