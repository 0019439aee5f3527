# env: XLA_FLAGS=--xla_force_host_platform_device_count=4
"""copy_to_host_async() returns at once and starts the transfer; a later np.asarray uses it."""

import subprocess
import sys

import jax
import jax.numpy as jnp
import numpy as np

# On CPU an int4 result cannot be viewed in place, so reading it is a real device-to-host copy.
# Older CPU backends cannot compute or fetch int4 at all (some crash trying): ask a child first.
INT4 = """
import jax, jax.numpy as jnp, numpy as np
x = jax.jit(lambda a: a.astype(jnp.int4))(jnp.ones((64, 64)))
x.copy_to_host_async()
np.asarray(x)
"""
if subprocess.run([sys.executable, "-c", INT4], capture_output=True).returncode != 0:
    print("int4 arrays cannot be computed or fetched on this CPU backend: nothing to transfer")
    sys.exit()
product = jax.jit(lambda a: (a @ a).astype(jnp.int4))
# A product still running when the next line looks: 2000x2000 on CPU; a GPU does that in
# microseconds, so there it is 16384x16384.
n = 2000 if jax.default_backend() == "cpu" else 16384
x = jnp.ones((n, n))
product(x).block_until_ready()  # warm-up

y = product(x)
print("copy_to_host_async returns:", y.copy_to_host_async())
print("ready right after copy_to_host_async:", y.is_ready())
with jax.transfer_guard_device_to_host("disallow"):
    host = np.asarray(y)  # waits; no new transfer: the one already started serves it
print("np.asarray under a device-to-host guard afterwards:", type(host).__name__, host.shape)
print("ready after np.asarray:", y.is_ready())

z = product(x)
with jax.transfer_guard_device_to_host("disallow"):
    try:
        np.asarray(z)
        print("without copy_to_host_async, np.asarray under the guard: no error")
    except Exception as e:
        disallowed = "Disallowed device-to-host transfer" in str(e)
        print("without copy_to_host_async, np.asarray under the guard is refused:", disallowed)
