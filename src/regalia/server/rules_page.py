"""A game's rules as an HTML page: the rulebook's Markdown rendered by markdown-it-py with no raw
HTML let through, then the game's reference (each tile or archetype pictured, with its count and
what it does) as a grid of figures (docs/server.md, ``GET /api/games/{game}/rules.html``).

The page is whole (it can be opened on its own); the match page's rules dialog shows its
``<main>``. Only the game's own SVG pictures are inserted as markup; every text is escaped.

>>> from regalia.core.plugin import ReferenceItem
>>> page = rules_page("Toy", "# Toy\\n\\nA <script>alert(1)</script> game.", [])
>>> "<h1>Toy</h1>" in page, "<script>" in page, "&lt;script&gt;" in page
(True, False, True)
>>> item = ReferenceItem("A", 2, "a <b> tile", '<svg viewBox="0 0 1 1"></svg>')
>>> section = reference_html([item])
>>> section.count("<figure"), "<p>2 in all, 1 kind.</p>" in section
(1, True)
>>> print(section.split("<figcaption>")[1])
<strong>A</strong> <span class="count">×2</span><br>a &lt;b&gt; tile</figcaption></figure>
</div></section>
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from markdown_it import MarkdownIt

from regalia.core.plugin import ReferenceItem

#: CommonMark with tables and strikethrough; raw HTML in the Markdown is shown as text.
_MD = MarkdownIt("commonmark", {"html": False}).enable(["table", "strikethrough"])

_STYLE = """
body { font-family: system-ui, sans-serif; max-width: 60rem; margin: 1rem auto; padding: 0 1rem; }
.rules-markdown pre { white-space: pre-wrap; background: #f4f1e8; padding: .5rem; }
.reference-grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(11rem, 1fr)); gap: .75rem; }
.reference-item { margin: 0; padding: .5rem; border: 1px solid #d8d2c0; border-radius: .4rem; }
.reference-item svg { display: block; width: 96px; height: auto; max-width: 100%; margin: 0 auto .25rem; }
.reference-item figcaption { font-size: .9rem; }
"""


def markdown_html(text: str) -> str:
    """``text`` (Markdown) as HTML; raw HTML in it is escaped, never passed through."""
    return str(_MD.render(text))


def reference_html(items: Sequence[ReferenceItem]) -> str:
    """The reference as a section: a grid of figures, each picture captioned with its name, count
    and text (empty when the game has no reference)."""
    if not items:
        return ""
    total = sum(i.count for i in items)
    kinds = f"{len(items)} kind{'s' if len(items) != 1 else ''}"
    figures = [
        f'<figure class="reference-item" data-name="{escape(i.name)}" data-count="{i.count}">{i.svg}'
        f'<figcaption><strong>{escape(i.name)}</strong> <span class="count">×{i.count}</span><br>'
        f"{escape(i.text)}</figcaption></figure>"
        for i in items
    ]
    return (
        '<section id="reference" aria-labelledby="reference-title"><h2 id="reference-title">Reference</h2>\n'
        f"<p>{total} in all, {kinds}.</p>\n"
        '<div class="reference-grid">\n' + "\n".join(figures) + "\n</div></section>"
    )


def rules_page(name: str, rules: str, items: Sequence[ReferenceItem]) -> str:
    """The whole page: ``name``'s rules (Markdown ``rules``) then the reference ``items``."""
    body = markdown_html(rules) if rules else "<p>This game ships no rules text.</p>\n"
    return (
        "<!doctype html>\n"
        f'<html lang="en"><head><meta charset="utf-8"><title>Rules: {escape(name)}</title>'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<style>{_STYLE}</style></head>\n"
        f'<body><main id="rules"><div class="rules-markdown">\n{body}</div>\n'
        f"{reference_html(items)}</main></body></html>\n"
    )
