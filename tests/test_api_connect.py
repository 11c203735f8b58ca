"""gigflow.api.connect: a chosen database (home= or database_url=), and no call creates a database as a side effect
of the folder it ran in."""

from __future__ import annotations

import pytest

from gigflow import api

pytestmark = pytest.mark.db


def test_no_call_creates_a_database_where_it_was_run(pool, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no scrapy.cfg here or above
    monkeypatch.delenv("GIGFLOW_DATABASE_URL", raising=False)
    monkeypatch.delenv("GIGFLOW_HOME", raising=False)
    with pytest.raises(api.NoDatabaseError, match="no gigflow project around"):
        api.connect()
    with pytest.raises(api.NoDatabaseError, match="connect"):
        list(api.jobs())
    with pytest.raises(api.NoDatabaseError, match="no gigflow database under"):
        api.connect(home=tmp_path / "elsewhere")
    monkeypatch.setenv("GIGFLOW_HOME", str(tmp_path / "home"))
    with pytest.raises(api.NoDatabaseError, match="scrapy db upgrade"):
        api.refresh()
    assert list(tmp_path.iterdir()) == []  # nothing left behind


def test_connect_to_a_chosen_database(pool, database_url, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GIGFLOW_DATABASE_URL", raising=False)
    db = api.connect(database_url=database_url)
    assert list(db.jobs()) == [] and db.refresh()["checked"] == 0 and db.job(1) is None
    with pytest.raises(ValueError, match="not both"):
        api.connect(home=tmp_path, database_url=database_url)
