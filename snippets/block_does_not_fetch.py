"""Blocking never moves data to the host; np.asarray does, unless it can view the buffer as is."""

import jax
import jax.numpy as jnp
import numpy as np

f32 = jax.jit(lambda a: a * 2)(jnp.arange(6.0))
int4 = jax.jit(lambda a: (a * 2).astype(jnp.int4))(jnp.arange(6))  # sub-byte: no in-place view

for name, x in [("float32", f32), ("int4", int4)]:
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
