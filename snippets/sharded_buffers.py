# env: XLA_FLAGS=--xla_force_host_platform_device_count=4
"""A sharded array has one buffer per device, and blocking it waits for every one of them.

The slow buffer (a large product still running) is put on each device but the first in turn, so a
block that waited for one buffer only, the first or the last, would print False somewhere.
"""

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec

devices = jax.devices()
print("devices:", len(devices))
print("buffers of a single-device array:", len(jnp.ones(3).addressable_shards))
if len(devices) < 4:  # a machine with fewer accelerators: no sharded array to build
    print(f"{jax.default_backend()}: fewer than the four devices this needs")
    raise SystemExit

matmul = jax.jit(lambda a: a @ a)
n = 2000
blocks = [jax.device_put(jnp.ones((n, n)), d) for d in devices]
for block in blocks:
    matmul(block).block_until_ready()  # warm-up: compile for every device
sharding = NamedSharding(Mesh(np.array(devices), ("x",)), PartitionSpec("x"))

for slow in (1, 3, 2):
    shards = [matmul(b) if i == slow else b for i, b in enumerate(blocks)]
    x = jax.make_array_from_single_device_arrays((len(devices) * n, n), sharding, shards)
    if slow == 1:
        print("buffers of the sharded array:", len(x.addressable_shards))
    x.addressable_shards[0].data.block_until_ready()
    print(f"slow buffer on device {slow}: array ready after blocking buffer 0:", x.is_ready())
    x.block_until_ready()
    every_buffer_ready = all(s.data.is_ready() for s in x.addressable_shards)
    print(
        f"slow buffer on device {slow}: every buffer ready after x.block_until_ready():",
        every_buffer_ready,
    )
