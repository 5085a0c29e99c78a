"""The shared SVG builder (regalia.render.svg): text wrapping, buttons, clickable parts and
selection layers, as every game's picture uses them."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET

import pytest

from regalia.render.svg import button, button_width, layer, offer, text_lines, wrap

SENTENCE = "Dashed squares: where the drawn tile fits, one picture per rotation of the tile"


@pytest.mark.parametrize("columns", [8, 12, 20, 33, 80])
def test_wrapped_lines_fit_the_width_and_keep_every_word_whole(columns: int) -> None:
    lines = [line for _, line in wrap(SENTENCE, columns)]
    assert all(len(line) <= columns for line in lines)
    assert " ".join(lines).split() == SENTENCE.split()  # no word split, lost or added


def test_a_line_takes_the_next_word_whenever_it_fits() -> None:
    lines = [line for _, line in wrap(SENTENCE, 20)]
    for line, following in itertools.pairwise(lines):
        assert len(line) + 1 + len(following.split()[0]) > 20


def test_only_a_word_longer_than_a_line_is_split() -> None:
    lines = [line for _, line in wrap("a incomprehensibilities b", 6)]
    assert all(len(line) <= 6 for line in lines)
    assert "".join(lines).replace(" ", "") == "aincomprehensibilitiesb"
    words = " ".join(lines).split()
    assert "a" in words and "b" in words  # the words that fit a line stay whole


def test_paragraphs_keep_their_indent_and_hang_their_continuations() -> None:
    out = wrap(["first line", "  a second paragraph that wraps", ""], 14, hang=2)
    assert out == [(0, "first line"), (2, "a second"), (4, "paragraph"), (4, "that wraps"), (0, "")]


def test_text_lines_step_down_and_indent_by_the_character_width() -> None:
    parts, bottom = text_lines(10, 100, ["one two three", "  four"], 8, size=10, step=15, char=7, hang=2)
    root = ET.fromstring("<g>" + "".join(parts) + "</g>")
    got = [(t.get("x"), t.get("y"), t.text) for t in root]
    assert got == [("10", "100", "one two"), ("24", "115", "three"), ("24", "130", "four")]
    assert bottom == 145


def test_a_button_carries_its_action_as_data_action_and_tooltip() -> None:
    g = ET.fromstring(button(5, 6, "end turn", "end"))
    assert g.get("data-action") == "end" and g.get("data-select") is None
    assert "clickable" in (g.get("class") or "").split()
    assert g.findtext("title") == "end" and g.findtext("text") == "end turn"
    rect = g.find("rect")
    assert rect is not None and float(rect.get("width", 0)) == button_width("end turn") == 16 + 8 * 8


def test_a_selecting_button_carries_the_layer_key_and_no_action() -> None:
    g = ET.fromstring(button(0, 0, "build", select="build W3", tip=False, bold=False, width=30))
    assert g.get("data-select") == "build W3" and g.get("data-action") is None
    assert g.find("title") is None
    rect, text = g.find("rect"), g.find("text")
    assert rect is not None and rect.get("width") == "30"
    assert text is not None and text.get("x") == "15" and text.get("font-weight") is None


def test_offer_marks_the_part_clickable_and_leaves_other_attributes() -> None:
    assert offer({"class": "tile", "data-pos": "0,0"}, "destroy 0,0") == {
        "class": "tile clickable",
        "data-pos": "0,0",
        "data-action": "destroy 0,0",
    }
    assert offer({"class": "zone-tile"}, select="play Spy", cls="selectable") == {
        "class": "zone-tile selectable clickable",
        "data-select": "play Spy",
    }
    assert offer({"class": "unit"}) == {"class": "unit"}  # nothing to offer: not clickable


def test_a_layer_is_hidden_unless_shown_and_holds_its_parts() -> None:
    part = '<rect data-action="build W3 1,2"/>'
    hidden, shown = ET.fromstring(layer("build W3", part)), ET.fromstring(layer("k", part, shown=True))
    assert (hidden.get("data-layer"), hidden.get("display"), hidden.get("class")) == (
        "build W3",
        "none",
        "layer",
    )
    assert shown.get("display") == "inline"
    assert [e.get("data-action") for e in hidden] == ["build W3 1,2"]
