"""The site footer's lines about the office, not the job (issue #23): opening hours, founding year, share capital,
a register or licence number.

On a one-employer site the footer's name, address, phone and mailbox are the employer's facts and stay (rounds
9-10). The lines beside them that describe the company as an office ("Opening hours: Mon-Fri 9-17", "Founded
2016", "Share capital: EUR 25,000", "Licence no. 220086") tell a job seeker nothing about the vacancy; a statement
that is such a label and its value goes. Pure functions over text; learning only.
"""

from __future__ import annotations

import re

from gigflow.noise.learn.classifier import REGISTRATION_LABEL

# The label that starts such a line, in the languages of the development set (en, de, fr, nl, es, it, ja). A line
# of the label alone ("Opening hours") is a heading and is judged as before.
_OFFICE_DETAIL_LABEL = re.compile(
    r"^\W{0,3}(?:"
    r"(?:opening|business|office|service|support) hours|hours of (?:business|operation)|founded|established|"
    r"(?:share|registered|paid[- ]up) capital|(?:licen[cs]e|registration|register|company|tax|vat) (?:no|number)\b|"
    r"öffnungszeiten|geschäftszeiten|bürozeiten|servicezeiten|gegründet|gründung(?:sjahr)?|stammkapital|"
    r"grundkapital|handelsregister|registergericht|"
    r"horaires?(?: d'ouverture)?|date de création|fondée? en|capital social|"
    r"openingstijden|kantoortijden|opgericht|maatschappelijk kapitaal|"
    r"horario(?: de atención)?|fundada en|orari(?: di apertura)?|fondata nel|capitale sociale|"
    r"営業時間|受付時間|設立|創業|資本金|[^\s：:]{0,8}(?:許可|登録)番号"
    r")", re.I)
# The label of a line giving the company's billing or bank details (an e-invoicing code, a bank account): the
# office's too, even with the mailbox invoices go to ("Codice Univoco Fatturazione Elettronica: X - PEC: a@b").
_BILLING_LABEL = re.compile(
    r"^\W{0,3}(?:"
    r"iban|bic|swift(?: code)?|bank (?:details|account|connection)|(?:billing|invoic(?:e|ing)) (?:address|details|code|e-?mail)|"
    r"bankverbindung|bankdaten|rechnungs(?:adresse|anschrift|empfang)|steuer-?(?:nr|nummer)|"
    r"coordonnées bancaires|rib|adresse de facturation|"
    r"bankrekening|rekeningnummer|factuuradres|"
    r"datos bancarios|cuenta bancaria|datos de facturación|"
    r"codice (?:univoco|destinatario|sdi)|fatturazione elettronica|coordinate bancarie"
    r")\b", re.I)
# What may follow the label: a separator and a value on the same line.
_VALUE = re.compile(r"\S")


# A register or tax number's label, read before the number's first digit ("CVR nr. 36 39 90 66", "KvK 12345678").
_REGISTER_LABEL_MAX_CHARS = 24
_NUMBER_ONLY = re.compile(r"[\d\s./-]+$")


def office_detail_line(text: str) -> bool:
    """A statement that is an office's detail: its label and value, no mailbox (a "Contact hours" line
    with the recruiter's mail is a contact)."""
    line = " ".join(text.split())
    billing = _BILLING_LABEL.match(line)
    if billing:
        return bool(_VALUE.search(line[billing.end():]))
    if "@" in line:
        return False
    match = _OFFICE_DETAIL_LABEL.match(line)
    if match:
        return bool(_VALUE.search(line[match.end():]))
    first_digit = next((i for i, ch in enumerate(line) if ch.isdigit()), None)
    # Only the number after the label: "SE-211 22 Malmö" is a postal address, not a register entry.
    return (first_digit is not None and 0 < first_digit <= _REGISTER_LABEL_MAX_CHARS
            and bool(_NUMBER_ONLY.match(line[first_digit:])) and bool(REGISTRATION_LABEL.search(line[:first_digit])))
