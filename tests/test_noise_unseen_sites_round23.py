"""Round 23 of issue #23: hold-out 16 once measured (FM-FO), built here on synthetic pages.

Hold-out 16 (a design-jobs board, a Sofia blockchain firm's career pages, a Danish shipping platform's) kept 133 of
138 facts with 78.3% of the template removed; studied after that first measurement:

- FM: the site's logo is named by its file or class name ("acme-logo", "logo_acme"), so the site owner read
  "acme-logo" and the footer's general mailbox (hello@acme.example, the only way to reach the employer) was no
  longer the owner's: it went. A logo's name loses "logo" however it is joined (`owner.clean_name`).
- FN: "Applications" as software is not applying: a services menu's "Decentralized Applications Development" and
  its link to /web-applications-development/ kept a whole footer menu as an apply link
  (`classifier._APPLICATION_AS_A_THING`).
- FO: a customer desk's mailbox (kundeservice@, customer-care@, sales@) is whom customers write to, never a job's
  contact, and a company's register or tax number ("CVR nr. 36 39 90 66", "KvK 12345678") is no phone
  (`classifier.CUSTOMER_MAILBOXES`, `classifier._REGISTRATION_LABEL`).

Each behaviour test fails on the code before round 23 (commit a8becf1); the guards pass on both.
"""

from __future__ import annotations

from noise_helpers import SITE_MENU, learn_four_jobs

from gigflow.noise.learn.classifier import ReviewRegion, job_fact_signals
from gigflow.noise.learn.owner import clean_name

ORIGIN = "https://nordlicht.example"


def _kinds(text: str, links=()) -> set[str]:
    region = ReviewRegion(id="r", selector="div", signature="s", tag="div", text=text, links=tuple(links),
                          html="<div/>")
    return {signal.kind for signal in job_fact_signals(region)}


# --- FM -------------------------------------------------------------------------------------------------------

def _logo_page(_k, slug, title, text, need):
    return (f"<html><head><title>{title} - nordlicht</title></head><body><header>"
            f"<a href='/'><img src='/img/logo.svg' alt='nordlicht-logo'></a>{SITE_MENU}</header>"
            f"<main><h1>{title}</h1><p>{text}</p><h4>Your profile</h4><ul><li>{need}</li></ul></main>"
            "<footer><ul><li><a href='mailto:hello@nordlicht.example'>hello@nordlicht.example</a></li>"
            "<li><a href='/privacy/'>Privacy Policy</a></li></ul></footer></body></html>")


def test_fm_a_logo_named_by_its_file_name_still_names_the_owner():
    assert clean_name("nordlicht-logo") == "nordlicht" and clean_name("logo_nordlicht") == "nordlicht"
    assert clean_name("Job-Portal GmbH") == "Job-Portal GmbH"  # a hyphenated name keeps its words


def test_fm_the_owners_footer_mailbox_stays_as_the_only_contact():
    _result, markdown = learn_four_jobs(_logo_page, ORIGIN)
    assert "hello@nordlicht.example" in markdown
    assert "Privacy Policy" not in markdown


# --- FN -------------------------------------------------------------------------------------------------------

def test_fn_applications_as_software_are_no_apply_link():
    menu = [("Decentralized Applications Development", f"{ORIGIN}/services/decentralized-applications-development/"),
            ("Decentralized application (dApp) development", f"{ORIGIN}/services/dapps/"),
            ("Smart Contract Audits", f"{ORIGIN}/services/audits/")]
    assert "apply" not in _kinds("\n".join(text for text, _ in menu), menu)
    assert "link" not in _kinds("\n".join(text for text, _ in menu), menu)


def test_fn_guard_ways_to_apply_stay_apply_links():
    assert "apply" in _kinds("Submit your application", [("Submit your application", f"{ORIGIN}/jobs/1/apply")])
    assert "apply" in _kinds("Open applications", [("Open applications", f"{ORIGIN}/open-applications/")])
    assert "link" in _kinds("Apply", [("Apply", f"{ORIGIN}/application-form/")])


# --- FO -------------------------------------------------------------------------------------------------------

def test_fo_customer_desks_and_register_numbers_are_no_job_contact():
    assert "contact" not in _kinds("Mail: kundeservice@nordlicht.example")
    assert "contact" not in _kinds("customer-care@nordlicht.example")
    assert "contact" not in _kinds("CVR nr. 36 39 90 66")
    assert "contact" not in _kinds("KvK 12345678")
    assert "link" not in _kinds("Write to us", [("Write to us", "mailto:sales@nordlicht.example")])


def test_fo_guard_job_mailboxes_and_phones_stay_contacts():
    assert "contact" in _kinds("Send your CV to job@nordlicht.example")
    assert "contact" in _kinds("Questions? Call Anna on +45 70 40 04 07")
    assert "contact" in _kinds("Tel. 030 1234 5678 (CVR nr. on request)")
