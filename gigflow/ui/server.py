"""Start the review app under uvicorn: loopback by default; any other address needs a token."""

from __future__ import annotations

from gigflow.safety.loopback import LOCAL_HOSTS, is_loopback

__all__ = ["LOCAL_HOSTS", "UiConfigError", "build", "is_loopback", "serve"]


class UiConfigError(ValueError):
    pass


def build(settings, host: str):
    """The app for this bind address, or UiConfigError saying what is missing."""
    from gigflow.ui.app import create_app

    token = (settings.get("UI_TOKEN") or "").strip()
    if not is_loopback(host) and not token:
        raise UiConfigError(f"binding {host} makes the app reachable from other machines: set a token first "
                            "(GIGFLOW_UI_TOKEN=... or -s UI_TOKEN=...), or bind 127.0.0.1")
    allowed = LOCAL_HOSTS if is_loopback(host) else None
    return create_app(settings, token=token, allowed_hosts=allowed), token


def serve(settings, *, host: str, port: int) -> None:
    import uvicorn

    from gigflow.db import pool_from_settings

    app, token = build(settings, host)
    pool_from_settings(settings)  # connect and migrate before announcing the address (the app's pool is this one)
    shown = f"[{host}]" if ":" in host else host
    print(f"gigflow review app on http://{shown}:{port}/" + (f"?token={token}" if token else "")
          + "  (Ctrl-C stops)", flush=True)
    uvicorn.run(app, host=host, port=port, log_level=settings.get("UI_LOG_LEVEL") or "warning",
                log_config=log_config())


def log_config() -> dict:
    """uvicorn's logging with the access token redacted from every line (the access log shows query strings)."""
    import copy

    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config.setdefault("filters", {})["redact_token"] = {"()": "gigflow.ui.security.RedactTokenFilter"}
    for handler in config["handlers"].values():
        handler.setdefault("filters", []).append("redact_token")
    return config
