"""On CPU the device-to-host transfer guard only sees sub-byte arrays such as int4;
jax.device_get is an explicit transfer that starts copy_to_host_async on every leaf before
fetching any."""

import subprocess
import sys

import jax
import jax.numpy as jnp
import numpy as np


def guarded(call):
    """Whether the transfer guard let a call through: it refuses with the runtime's error
    (JaxRuntimeError, XlaRuntimeError before jax 0.8)."""
    try:
        call()
    except RuntimeError as e:
        if type(e).__name__ in ("JaxRuntimeError", "XlaRuntimeError") and "Disallowed" in str(e):
            return "refused"
        return type(e).__name__
    return "let through"


# device_get's order of calls, seen by two leaves that record them
calls = []


class Leaf:
    def __init__(self, name):
        self.name = name

    def copy_to_host_async(self):
        calls.append(f"copy_to_host_async {self.name}")

    def __array__(self, dtype=None, copy=None):
        calls.append(f"fetch {self.name}")
        return np.zeros(1)


jax.device_get([Leaf("a"), Leaf("b")])
print(
    "device_get: copy_to_host_async on every leaf before any leaf is fetched:",
    calls == ["copy_to_host_async a", "copy_to_host_async b", "fetch a", "fetch b"],
)

# Older CPU backends cannot compute or fetch int4 at all (some crash trying): ask a child first.
INT4 = "import jax, jax.numpy as jnp, numpy as np; np.asarray(jnp.ones(8).astype(jnp.int4))"
dtypes = [jnp.float32, jnp.int8]
if subprocess.run([sys.executable, "-c", INT4], capture_output=True).returncode == 0:
    dtypes.append(jnp.int4)
else:
    print("int4 arrays cannot be computed or fetched on this CPU backend")
make = {d: jax.jit(lambda a, d=d: (a * 2).astype(d)) for d in dtypes}


def fresh(dtype):
    return make[dtype](jnp.ones(8)).block_until_ready()  # computed, never fetched


for d in dtypes:
    name = d.__name__
    with jax.transfer_guard_device_to_host("disallow"):
        print(f"{name}, guard 'disallow': np.asarray is", guarded(lambda d=d: np.asarray(fresh(d))))
        print(
            f"{name}, guard 'disallow': jax.device_get is",
            guarded(lambda d=d: jax.device_get(fresh(d))),
        )
        print(
            f"{name}, guard 'disallow': copy_to_host_async is", guarded(fresh(d).copy_to_host_async)
        )
    with jax.transfer_guard_device_to_host("disallow_explicit"):
        print(
            f"{name}, guard 'disallow_explicit': jax.device_get is",
            guarded(lambda d=d: jax.device_get(fresh(d))),
        )
    if d is not jnp.int4:
        continue  # zero-copy: nothing above was refused, nothing to start
    x = fresh(d)
    x.copy_to_host_async()  # started without a guard
    with jax.transfer_guard_device_to_host("disallow"):
        print(
            f"{name}, copy already started, guard 'disallow': copy_to_host_async again is",
            guarded(x.copy_to_host_async),
        )
        print(
            f"{name}, copy already started, guard 'disallow': np.asarray is",
            guarded(lambda x=x: np.asarray(x)),
        )
