"""``python -m jaxwaits``."""

from jaxwaits.cli import run

run()
