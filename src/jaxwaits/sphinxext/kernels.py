"""The Jupyter kernels myst-nb runs the pages in.

Every kernel loads :mod:`jaxwaits.evidence.kernel`, which runs each snippet cell in a fresh
interpreter as the tests do. ``python3`` is the default; ``jaxwaits_kernels`` in ``conf.py`` maps
other kernel names to extra environment variables, for pages whose snippets need an environment set
before JAX starts (a page picks one in its front matter: ``kernelspec: name: ...``). The kernel
specs name this interpreter by its path on the builder's machine, so they are written into a
temporary folder for the build's length and found first there: nothing is installed, and nothing
of them lands in the docs tree or the published site.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import shutil
import sys
import tempfile
from importlib import metadata
from pathlib import Path

from sphinx.application import Sphinx

from jaxwaits.claims import reader
from jaxwaits.files import write_atomic

DEFAULT_KERNEL = "python3"
# Part of the execution cache's key: outputs cached under another way of running snippets
# (before each ran in a fresh interpreter) are never served.
EXECUTION = "fresh-interpreter-1"


def execution_cache_key(kernels: dict[str, dict[str, str]]) -> str:
    """A folder name that changes with the JAX and jaxlib releases, Python, and the kernels.

    myst-nb's cache keys only on code; keying its folder on these keeps it from serving
    outputs recorded under another JAX.
    """
    versions = [f"{name}-{metadata.version(name)}" for name in ("jax", "jaxlib")]
    keyed = json.dumps([EXECUTION, kernels], sort_keys=True).encode()
    kernel_hash = hashlib.sha256(keyed).hexdigest()[:8]
    return "_".join([*versions, f"py{platform.python_version()}", kernel_hash])


def kernel_env(app: Sphinx, docname: str) -> tuple[str, dict[str, str]]:
    """The kernel a page runs in, and the environment that kernel adds."""
    front = reader.read(Path(app.env.doc2path(docname))).front_matter
    name = (front.get("kernelspec") or {}).get("name") or DEFAULT_KERNEL
    return name, app.config.jaxwaits_kernels.get(name, {})


def _write_kernel_specs(app: Sphinx) -> None:
    root = Path(tempfile.mkdtemp(prefix="jaxwaits-kernels-"))
    for name, env in {DEFAULT_KERNEL: {}, **app.config.jaxwaits_kernels}.items():
        spec = {
            "argv": [
                sys.executable,
                "-m",
                "ipykernel_launcher",
                "-f",
                "{connection_file}",
                "--ext=jaxwaits.evidence.kernel",
                # its warnings are about the kernel's own sockets, not the snippets (which run
                # in processes of their own): "running over TCP without encryption", per page
                "--IPKernelApp.log_level=ERROR",
            ],
            "display_name": f"Python 3 ({name})",
            "language": "python",
            "env": env,
        }
        folder = root / "kernels" / name
        folder.mkdir(parents=True, exist_ok=True)
        write_atomic(folder / "kernel.json", json.dumps(spec, indent=2))
    before = os.environ.get("JUPYTER_PATH")
    os.environ["JUPYTER_PATH"] = os.pathsep.join(filter(None, [str(root), before]))

    def remove(app: Sphinx, exception: Exception | None) -> None:
        shutil.rmtree(root, ignore_errors=True)
        if before is None:
            os.environ.pop("JUPYTER_PATH", None)
        else:
            os.environ["JUPYTER_PATH"] = before

    app.connect("build-finished", remove)


def setup(app: Sphinx) -> None:
    app.add_config_value("jaxwaits_kernels", {}, "env", types=[dict])
    app.connect("builder-inited", _write_kernel_specs)
