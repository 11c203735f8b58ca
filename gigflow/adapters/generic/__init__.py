"""Generic HTML fallback: fields from generic evidence, never from one site's patterns.

Reads the raw HTML (scripts, styles and templates dropped; header, nav, footer, dialogs count as site chrome), one
module per concern:
- `page`: the parsed page, its regions and label rows, and the job assembled from the field finders;
- `title` with `title_rules`: candidates (headings of any level, title-like classes, a labelled title, prominent
  elements) scored by tables of rules: agreement with `<title>`/`og:title` and the labels; site names, section
  headings and listing items lose;
- `employer`: labels, microdata, class names, "at/bij/bei/chez X", the `<title>` part beside the job title, the line
  beside the title heading, then the source's configured company, then `og:site_name`, logo alt text, the copyright
  line (a table of sources, strongest first);
- `location`: labels, microdata, address markup, class names, the line beside the title heading and `<title>` parts
  when the gazetteer knows them as places (a table of sources);
- `dates`: labels, `<time>`, meta and "posted ..." phrases, read by `gigflow.adapters.dates` against the fetch time;
- `content`: salary, description and the apply link.
A page with no title candidate yields no job, and the warning names the best candidates it rejected.
"""

from gigflow.adapters.generic.adapter import GenericHtmlAdapter
from gigflow.adapters.generic.page import Page, read_page

__all__ = ["GenericHtmlAdapter", "Page", "read_page"]
