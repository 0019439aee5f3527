"""``python -m jaxwaits``."""

import sys

from jaxwaits.cli import main

sys.exit(main())
