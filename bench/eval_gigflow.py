#!/usr/bin/env python3
"""The `--gigflow CMD` adapter for ../shared/tools/eval_markdown.py: JSON page list on stdin, {page: markdown} out.

usage: python ../shared/tools/eval_markdown.py ../shared/corpus ../shared/corpus/facts.jsonl \
           --systems gigflow,trafilatura --gigflow ".venv/bin/python bench/eval_gigflow.py [CONVERTER]"
"""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gigflow.documents import DEFAULT_CONVERTER, DocumentPreparer  # noqa: E402

client = DocumentPreparer(sys.argv[1] if len(sys.argv) > 1 else DEFAULT_CONVERTER)
pages = json.load(sys.stdin)
print(json.dumps({page["page"]: client.prepare(Path(page["html_path"]).read_bytes(),
                                               page["url"] or f"https://corpus.invalid/{page['page']}").markdown
                  for page in pages}))
