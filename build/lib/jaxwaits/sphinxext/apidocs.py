"""The renderer for the machinery's own API pages (``autodoc2_render_plugin``).

autodoc2 gives every attribute whose value it cannot read as a constant (a dataclass field with
no default, a value computed by a call it does not follow) the value ``None``, and renders
``id: str = None``, which is wrong. This renderer leaves such values out.
"""

from __future__ import annotations

from collections.abc import Iterable

from autodoc2.render.rst_ import RstRenderer
from autodoc2.utils import ItemData


class Renderer(RstRenderer):
    """autodoc2's reStructuredText renderer, without the ``None`` that stands for "unknown"."""

    def render_data(self, item: ItemData) -> Iterable[str]:
        for line in super().render_data(item):
            if item.get("value") is None and line == "   :value: None":
                continue
            yield line
