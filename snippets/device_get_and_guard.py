# env: XLA_FLAGS=--xla_force_host_platform_device_count=4
"""What the device-to-host transfer guard lets through on CPU, by dtype and by how the array is
laid out over the devices (on one, sharded over two, replicated on two); jax.device_get is an
explicit transfer that starts copy_to_host_async on every leaf before fetching any."""

import subprocess
import sys

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec, SingleDeviceSharding


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
layouts = {"on one device": SingleDeviceSharding(jax.devices()[0])}
if len(jax.devices()) >= 2:
    two = Mesh(np.array(jax.devices()[:2]), ("x",))
    layouts["sharded over two devices"] = NamedSharding(two, PartitionSpec("x"))
    layouts["replicated on two devices"] = NamedSharding(two, PartitionSpec())
else:  # a machine with one accelerator
    print(f"{jax.default_backend()}: one device, so no array on two devices")
make = {
    (d, layout): jax.jit(lambda a, d=d: (a * 2).astype(d), out_shardings=placed)
    for d in dtypes
    for layout, placed in layouts.items()
}


def fresh(dtype, layout):
    return make[dtype, layout](jnp.ones(8)).block_until_ready()  # computed, never fetched


for d in dtypes:
    for layout in layouts:
        said = f"{d.__name__} {layout}"
        with jax.transfer_guard_device_to_host("disallow"):
            asarray = guarded(lambda d=d, layout=layout: np.asarray(fresh(d, layout)))
            get = guarded(lambda d=d, layout=layout: jax.device_get(fresh(d, layout)))
            start = guarded(fresh(d, layout).copy_to_host_async)
        print(
            f"{said}, guard 'disallow': np.asarray {asarray}, jax.device_get {get},"
            f" copy_to_host_async {start}"
        )
        with jax.transfer_guard_device_to_host("disallow_explicit"):
            explicit = guarded(lambda d=d, layout=layout: jax.device_get(fresh(d, layout)))
        print(f"{said}, guard 'disallow_explicit': jax.device_get {explicit}")
        if asarray == "let through":
            continue  # nothing above was refused: there is no transfer to start early
        x = fresh(d, layout)
        x.copy_to_host_async()  # started without a guard
        with jax.transfer_guard_device_to_host("disallow"):
            again = guarded(x.copy_to_host_async)
            fetched = guarded(lambda x=x: np.asarray(x))
        print(
            f"{said}, copy already started, guard 'disallow': copy_to_host_async again {again},"
            f" np.asarray {fetched}"
        )
