"""What a page shows of its Python: the linters' suppression comments are left out."""

from __future__ import annotations

import pytest

from jaxwaits.sphinxext.shown_code import shown


@pytest.mark.parametrize(
    ("code", "seen"),
    [
        ("x.block_until_ready()  # jaxwaits: ignore[JW104] the mistake", "x.block_until_ready()"),
        ("f(x)  # compiles here  # jaxwaits: ignore[JW102] (the mistake)", "f(x)  # compiles here"),
        ("# jaxwaits: ignore-file[JW102]\nf(x)", "\nf(x)"),
        ("g(lambda: v)  # noqa: B023  # late value", "g(lambda: v)  # late value"),
        ("g(lambda: v)  # noqa: B023, F841", "g(lambda: v)"),
        ("import os  # noqa", "import os"),
        ("x.f  # noqa: B018 (the lookup is it)", "x.f  # (the lookup is it)"),
        (
            "y = x  # a comment that names noqa in passing",
            "y = x  # a comment that names noqa in passing",
        ),
    ],
)
def test_suppressions_are_left_out_of_what_a_page_shows(code: str, seen: str) -> None:
    assert shown(code) == seen
