"""The search's cheap language guess and the token helpers (pure)."""

from gigflow.delivery.language import QUERY_CONFIGS, accent_free_variants, cjk_bigrams, detect


def test_each_language_gets_its_dictionary_and_the_rest_simple():
    assert detect("Senior Data Engineer\nYou will build the pipelines our teams rely on.") == "english"
    assert detect("Krankenpfleger\nWir suchen für unsere Station eine engagierte Pflegekraft mit Herz.") == "german"
    assert detect("Comptable\nNous recherchons un comptable pour notre équipe à Lyon.") == "french"
    assert detect("Ambulant coach\nJij werkt met cliënten en wij bieden een fijn team voor je.") == "dutch"
    assert detect("Office Manažér\nMiesto práce Bratislava a je to pre nás v sieti s partnermi.") == "simple"
    assert detect("中高年活躍中／その他保守・点検系の求人詳細情報") == "simple"
    assert detect("[장애인만 채용] 어업경영체 등록 조사원 채용정보 상세") == "simple"
    assert detect("Welder") == "english"  # no signal: the default
    assert set(QUERY_CONFIGS) >= {"english", "german", "french", "dutch", "simple"}


def test_cjk_runs_become_character_pairs_and_accents_get_plain_variants():
    assert cjk_bigrams("保守点検 staff").split() == ["保守", "守点", "点検", "staff"]
    assert cjk_bigrams("品 x").split() == ["品", "x"]
    assert accent_free_variants("São Paulo, Zürich and Zurich") == "Sao Zurich"
    assert accent_free_variants("plain words") == ""
