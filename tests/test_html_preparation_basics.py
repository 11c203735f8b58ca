from gigflow.documents import prepare_html

PAGE = """<html><head>{base}<title>T</title><script>var x = "<a href='/evil'>";</script>
<style>p {{color: red}}</style><link rel="stylesheet" href="/s.css"><meta name="x" content="y"></head>
<body><h1 onclick="steal()">Job</h1><p><a href="apply">Apply</a> <a href="#details">Details</a>
<img src="img/team.jpg" alt="team"></p><noscript>enable JS</noscript><template><p>hidden</p></template>
<iframe src="https://ads.example/"></iframe><svg><text>logo</text></svg><p id="details">Salary €3,000</p></body></html>"""


def test_links_resolve_against_the_page_without_base():
    doc = prepare_html(PAGE.format(base=""), "https://jobs.example.com/nl/job/42")
    assert "(https://jobs.example.com/nl/job/apply)" in doc.markdown
    assert "(https://jobs.example.com/nl/job/42#details)" in doc.markdown
    assert "https://jobs.example.com/nl/job/img/team.jpg" in doc.markdown


def test_links_resolve_against_a_relative_base():
    doc = prepare_html(PAGE.format(base='<base href="/careers/">'), "https://jobs.example.com/nl/job/42")
    assert "(https://jobs.example.com/careers/apply)" in doc.markdown
    assert "https://jobs.example.com/careers/img/team.jpg" in doc.markdown
    # a fragment still points at the current page, not at the base
    assert "(https://jobs.example.com/nl/job/42#details)" in doc.markdown
    assert doc.report.base_url == "https://jobs.example.com/careers/"


def test_a_base_outside_http_is_ignored():
    doc = prepare_html(PAGE.format(base='<base href="javascript:alert(1)//">'), "https://jobs.example.com/a/b")
    assert "(https://jobs.example.com/a/apply)" in doc.markdown


def test_assets_and_event_handlers_are_removed_and_content_kept():
    doc = prepare_html(PAGE.format(base=""), "https://jobs.example.com/j")
    for gone in ("var x", "color: red", "s.css", "enable JS", "hidden", "ads.example", "logo", "steal"):
        assert gone not in doc.markdown
    assert "# Job" in doc.markdown and "Salary €3,000" in doc.markdown
    assert doc.report.assets_removed >= 8
    assert doc.title == "Job"


def test_an_embedded_application_form_stays_as_a_link():
    # Hold-out 169: the posting's only way to apply is a form builder's form in an iframe.
    page = ("<html><body><h1>Backend Developer</h1><p>Fill out the form below to apply.</p>"
            "<iframe src='https://airtable.com/embed/shrAbC123?backgroundColor=blue'></iframe>"
            "<iframe title='Apply for this job' src='/careers/apply/42'></iframe>"
            "<iframe src='https://www.youtube.com/embed/team-video'></iframe>"
            "<iframe src='https://www.google.com/maps/embed?pb=office'></iframe></body></html>")
    doc = prepare_html(page, "https://jobs.example.com/careers/backend/")
    assert "[Application form](https://airtable.com/embed/shrAbC123?backgroundColor=blue)" in doc.markdown
    assert "[Apply for this job](https://jobs.example.com/careers/apply/42)" in doc.markdown
    assert "youtube" not in doc.markdown and "maps" not in doc.markdown
    assert [step.rule for step in doc.report.steps].count("form-embed") == 2
