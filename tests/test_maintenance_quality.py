"""The quality score's parts and the publish gate (pure)."""

from gigflow.maintenance.quality import publishable, score

FULL = {"title": "Welder", "employer": "Acme Works", "location": "Berlin", "description": "x" * 300,
        "url": "https://acme.example/jobs/1", "apply_url": "https://acme.example/apply/1",
        "date_posted": "2026-11-01", "valid_through": "2026-12-31"}


def test_score_is_completeness_times_evidence_times_freshness():
    value, parts = score(FULL, confidence=0.9, sources=2, age_days=0.5, stale_days=14, expired=False, live=True)
    assert parts == {"completeness": 1.0, "evidence": 1.0, "freshness": 1.0} and value == 100
    thin = {"title": "Welder", "url": FULL["url"], "description": "x" * 150}
    value, parts = score(thin, confidence=0.6, sources=1, age_days=14, stale_days=14, expired=False, live=True)
    assert parts["completeness"] == 0.375 and parts["freshness"] == 0.5 and value == round(100 * 0.375 * 0.6 * 0.5)
    assert score(FULL, confidence=0.9, sources=1, age_days=0, stale_days=14, expired=True, live=True)[0] == 0
    assert score(FULL, confidence=0.9, sources=1, age_days=0, stale_days=14, expired=False, live=False)[0] == 0


def test_publish_gate_names_every_reason():
    assert publishable(80, min_score=40, link_status="ok", expired=False, duplicate=False) == []
    assert publishable(39, min_score=40, link_status="broken", expired=True, duplicate=True) == [
        "quality 39 < 40", "broken link", "expired", "duplicate"]
    assert publishable(40, min_score=40, link_status="unverifiable", expired=False, duplicate=False) == []
