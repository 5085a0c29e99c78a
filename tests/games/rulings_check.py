"""The checks of one game's part of docs/rulings.md, shared by the games' ``test_rulings_doc.py``:
every ruling quotes the rule, decides and names tests that exist; the game's document links every
ruling and its ``>>>`` examples run. A new game's test file makes a :class:`Rulings` and either
calls it or subclasses :class:`RulingsDocTests` with it."""

from __future__ import annotations

import ast
import doctest
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULINGS = ROOT / "docs" / "rulings.md"


def anchor(heading: str) -> str:
    """The link anchor a Markdown heading gets (GitHub's rule: lower case, punctuation dropped,
    spaces to hyphens)."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def check_pinning_tests(text: str) -> None:
    """Each test named under 'Pinned by' in ``text`` is a test function of that file."""
    refs = re.findall(r"(tests/[\w/]+\.py)::(\w+)", text)
    assert refs
    names: dict[str, set[str]] = {}
    for path in {p for p, _ in refs}:
        tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
        names[path] = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    for path, name in refs:
        assert name in names[path], f"{path}::{name}"


@dataclass(frozen=True)
class Rulings:
    """One game's part of docs/rulings.md: from ``heading`` up to the next game's part, its
    rulings titled ``## PREFIX-slug: title`` (or up to ``until``, for a part in several sections)."""

    heading: str  # "\n# Rulings: ..." as it stands in docs/rulings.md
    prefix: str  # "RC", "C", "R"
    required: Sequence[str] = ()  # the slugs the rulings must decide
    game_doc: str = ""  # the game's document under docs/, which links every ruling
    cue: str = "[Rr]uling"  # the word before a slug a test cites
    until: str = ""  # where the part ends, if not at the next "# " heading

    def part(self) -> str:
        text = RULINGS.read_text(encoding="utf-8")
        assert self.heading in text
        rest = text.split(self.heading, 1)[1]
        if self.until:
            return rest.split(self.until)[0]
        return re.split(r"^# ", rest, flags=re.M)[0]  # up to the next game's part, if any

    def entries(self) -> list[tuple[str, str]]:
        parts = re.split(r"^## ", self.part(), flags=re.M)[1:]
        return [(p.splitlines()[0], p) for p in parts]

    def slugs(self) -> list[str]:
        return [title.split(":")[0] for title, _ in self.entries()]

    def check_entries(self, at_least: int = 0) -> None:
        """Each ruling: '## PREFIX-slug: title', the rule quoted, a decision and 'Pinned by:';
        the slugs unique, the required ones all there."""
        found = self.entries()
        assert len(found) >= max(at_least, len(self.required))
        for title, body in found:
            assert re.match(rf"{self.prefix}-[a-z0-9-]+: \S", title), title
            assert "\n> " in body, f"{title}: no quoted rule"
            assert "Decision:" in body, f"{title}: no decision"
            assert "Pinned by: tests/" in body, f"{title}: no pinning test"
        slugs = self.slugs()
        assert len(slugs) == len(set(slugs))
        assert set(self.required) <= set(slugs)

    def check_pinning_tests(self) -> None:
        check_pinning_tests(self.part())

    def check_cited_slugs(self, tests: Path) -> None:
        """A slug a test of the folder ``tests`` cites ('ruling PREFIX-...') is a ruling here."""
        known = set(self.slugs())
        pattern = rf"{self.cue} ({self.prefix}-[a-z0-9-]+[a-z0-9])"
        for path in tests.glob("test_*.py"):
            for slug in re.findall(pattern, path.read_text(encoding="utf-8")):
                assert slug in known, f"{path.name}: {slug}"

    def check_game_doc_links(self) -> None:
        """The game's document links every ruling, and every link into rulings.md lands on a
        heading."""
        text = (ROOT / "docs" / self.game_doc).read_text(encoding="utf-8")
        headings = re.findall(r"^#+ (.+)$", RULINGS.read_text(encoding="utf-8"), flags=re.M)
        anchors = {anchor(h) for h in headings}
        for title, _ in self.entries():
            assert f"rulings.md#{anchor(title)})" in text, title
        for link in re.findall(r"rulings\.md#([\w-]+)", text):
            assert link in anchors, link

    def check_game_doc_examples(self) -> None:
        """Every ``>>>`` example of the game's document gives the output shown."""
        path = ROOT / "docs" / self.game_doc
        result = doctest.testfile(str(path), module_relative=False, optionflags=doctest.ELLIPSIS)
        assert result.attempted > 0
        assert result.failed == 0


class RulingsDocTests:
    """The five checks of a game's part of docs/rulings.md and of its document, as tests: a game's
    ``test_rulings_doc.py`` declares ``class TestRulingsDoc(RulingsDocTests)`` with its
    :class:`Rulings` as ``rulings`` and its test folder as ``folder``."""

    rulings: Rulings
    folder: Path

    def test_every_ruling_has_slug_quote_decision_and_pin(self) -> None:
        """docs/rulings.md: '## PREFIX-slug: title', the rule quoted, a decision and 'Pinned by:'."""
        self.rulings.check_entries()

    def test_every_pinning_test_exists(self) -> None:
        """docs/rulings.md: each test named under 'Pinned by' is a test function of that file."""
        self.rulings.check_pinning_tests()

    def test_slugs_cited_in_tests_are_rulings(self) -> None:
        """A slug a test of the game cites ('ruling PREFIX-...') is a ruling of docs/rulings.md."""
        self.rulings.check_cited_slugs(self.folder)

    def test_game_doc_links_every_ruling(self) -> None:
        """The game's document links every ruling of its part, and every link into rulings.md
        lands on a heading."""
        self.rulings.check_game_doc_links()

    def test_game_doc_examples_run(self) -> None:
        """Every ``>>>`` example of the game's document gives the output shown."""
        self.rulings.check_game_doc_examples()
