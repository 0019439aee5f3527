# env: XLA_FLAGS=--xla_force_host_platform_device_count=4
"""Blocking never moves data to the host; np.asarray does, unless it can view the buffer as is:
a float32 array on one device, sharded over two devices and replicated on two, and an int4 one."""

import subprocess
import sys

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec

double = jax.jit(lambda a: a * 2)
arrays = [("float32 on one device", double(jnp.arange(6.0)))]
if len(jax.devices()) >= 2:
    two = Mesh(np.array(jax.devices()[:2]), ("x",))
    on_two = {"sharded over": PartitionSpec("x"), "replicated on": PartitionSpec()}
    for how, spec in on_two.items():
        placed = jax.device_put(jnp.arange(6.0), NamedSharding(two, spec))
        arrays.append((f"float32 {how} two devices", double(placed)))
else:  # a machine with one accelerator
    print(f"{jax.default_backend()}: one device, so no array on two devices")
# Older CPU backends cannot compute or fetch int4 at all (some crash trying): ask a child first.
INT4 = """
import jax, jax.numpy as jnp, numpy as np
x = jax.jit(lambda a: a.astype(jnp.int4))(jnp.ones((64, 64)))
x.copy_to_host_async()
np.asarray(x)
"""
if subprocess.run([sys.executable, "-c", INT4], capture_output=True).returncode == 0:
    arrays.append(
        ("int4 on one device", jax.jit(lambda a: (a * 2).astype(jnp.int4))(jnp.arange(6)))
    )
else:
    print("int4 arrays cannot be computed or fetched on this CPU backend")

for name, x in arrays:
    with jax.transfer_guard_device_to_host("disallow"):
        x.block_until_ready()
        print(f"{name}: block_until_ready under a device-to-host guard: no error")
        try:
            np.asarray(x)
            print(f"{name}: np.asarray under the guard: no error")
        except Exception as e:
            print(
                f"{name}: np.asarray under the guard raises a disallowed transfer:",
                "Disallowed device-to-host transfer" in str(e),
            )
    host = np.asarray(x)
    print(f"{name}: np.asarray returns a read-only ndarray:", not host.flags.writeable)
    print(f"{name}: a second np.asarray returns the same cached copy:", np.asarray(x) is host)
    print(
        f"{name}: it shares memory with that second result:", np.shares_memory(host, np.asarray(x))
    )
