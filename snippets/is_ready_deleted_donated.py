"""is_ready() on a deleted and on a donated array, each probed in a child interpreter."""

import signal
import subprocess
import sys

PROBE = """
import jax, jax.numpy as jnp
x = jnp.arange(1000.0)
{make_it_gone}
try:
    print("returns", x.is_ready())
except Exception as e:
    print("raises", type(e).__name__, "| error names deletion:", "deleted" in str(e))
"""
CASES = {
    "deleted": "x.delete()",
    "donated": "jax.jit(lambda a: a + 1, donate_argnums=0)(x).block_until_ready()",
}
for case, make_it_gone in CASES.items():
    code = PROBE.format(make_it_gone=make_it_gone)
    child = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    if child.returncode < 0:
        outcome = "the child was killed by " + signal.Signals(-child.returncode).name
    else:
        outcome = child.stdout.strip() or f"the child exited with status {child.returncode}"
    print(f"is_ready() on a {case} array:", outcome)
