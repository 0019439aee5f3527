"""Jupyter kernels for pages whose snippets need an environment set before JAX starts.

``jaxwaits_kernels`` in ``conf.py`` maps a kernel name to extra environment variables; a page
picks one in its front matter (``kernelspec: name: ...``). The kernel specs are written into the
build folder, so nothing is installed outside it.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import sys
from importlib import metadata
from pathlib import Path

from sphinx.application import Sphinx

from jaxwaits import myst

DEFAULT_KERNEL = "python3"


def execution_cache_key(kernels: dict[str, dict[str, str]]) -> str:
    """A folder name that changes with the JAX and jaxlib releases, Python, and the kernels.

    myst-nb's cache keys only on code; keying its folder on these keeps it from serving
    outputs recorded under another JAX.
    """
    versions = [f"{name}-{metadata.version(name)}" for name in ("jax", "jaxlib")]
    kernel_hash = hashlib.sha256(json.dumps(kernels, sort_keys=True).encode()).hexdigest()[:8]
    return "_".join([*versions, f"py{platform.python_version()}", kernel_hash])


def kernel_env(app: Sphinx, docname: str) -> tuple[str, dict[str, str]]:
    """The kernel a page runs in, and the environment that kernel adds."""
    name = myst.kernel_name(Path(app.env.doc2path(docname))) or DEFAULT_KERNEL
    return name, app.config.jaxwaits_kernels.get(name, {})


def _write_kernel_specs(app: Sphinx) -> None:
    root = Path(app.doctreedir).parent / "jupyter"
    for name, env in app.config.jaxwaits_kernels.items():
        spec = {
            "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
            "display_name": f"Python 3 ({name})",
            "language": "python",
            "env": env,
        }
        folder = root / "kernels" / name
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "kernel.json").write_text(json.dumps(spec, indent=2))
    os.environ["JUPYTER_PATH"] = os.pathsep.join(
        filter(None, [str(root), os.environ.get("JUPYTER_PATH")])
    )


def setup(app: Sphinx) -> None:
    app.add_config_value("jaxwaits_kernels", {}, "env", types=[dict])
    app.connect("builder-inited", _write_kernel_specs)
