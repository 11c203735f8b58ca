"""The place names are built from GeoNames once per machine and read back from a cache file: the same answers
either way, and a cache that is broken or cannot be written changes nothing."""

from __future__ import annotations

import pytest

from gigflow.adapters import gazetteer


@pytest.fixture
def fresh_names(monkeypatch, tmp_path):
    monkeypatch.setenv("GIGFLOW_CACHE_DIR", str(tmp_path / "cache"))
    gazetteer._names.cache_clear()
    yield tmp_path / "cache"
    gazetteer._names.cache_clear()


def test_the_cached_names_are_the_built_ones(fresh_names):
    built = gazetteer._names()
    files = list(fresh_names.glob("places-*.txt"))
    assert len(files) == 1
    gazetteer._names.cache_clear()
    assert gazetteer._names() == built == gazetteer._build_names()
    assert gazetteer.is_place("Grand Rapids, Michigan, United States") and not gazetteer.is_place("Senior Engineer")


def test_a_cut_cache_file_is_rebuilt_and_replaced(fresh_names):
    built = gazetteer._names()
    (path,) = fresh_names.glob("places-*.txt")
    path.write_text(path.read_text(encoding="utf-8")[:5000], encoding="utf-8")  # a writer killed half-way
    gazetteer._names.cache_clear()
    assert gazetteer._names() == built
    assert path.read_text(encoding="utf-8").endswith("\n.")


def test_a_cache_folder_that_cannot_be_written_changes_no_answer(fresh_names):
    fresh_names.parent.joinpath("cache").write_text("a file where the folder should be", encoding="utf-8")
    assert gazetteer.is_place("Kraków") and gazetteer.is_region_only("Germany")
