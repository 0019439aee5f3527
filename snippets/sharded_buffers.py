# env: XLA_FLAGS=--xla_force_host_platform_device_count=4
"""A sharded array has one buffer per device, and blocking it waits for the slowest one."""

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec

devices = jax.devices()
print("devices:", len(devices))
print("buffers of a single-device array:", len(jnp.ones(3).addressable_shards))

matmul = jax.jit(lambda a: a @ a)
n = 2000
blocks = [jax.device_put(jnp.ones((n, n)), d) for d in devices]
matmul(blocks[0]).block_until_ready()  # warm-up: compile for device 0

# Device 0's block is a large product still running; the other blocks are ready.
shards = [matmul(blocks[0]), *blocks[1:]]
sharding = NamedSharding(Mesh(np.array(devices), ("x",)), PartitionSpec("x"))
x = jax.make_array_from_single_device_arrays((4 * n, n), sharding, shards)
print("buffers of the sharded array:", len(x.addressable_shards))
x.addressable_shards[3].data.block_until_ready()
print("after blocking one buffer, array ready:", x.is_ready())
print("after blocking one buffer, slow buffer ready:", x.addressable_shards[0].data.is_ready())
x.block_until_ready()
every_buffer_ready = all(s.data.is_ready() for s in x.addressable_shards)
print("after blocking the array, every buffer ready:", every_buffer_ready)
