# env: XLA_FLAGS=--xla_force_host_platform_device_count=4
"""Blocking an array waits for its own buffer only, not for earlier work on another device."""

import jax
import jax.numpy as jnp

if len(jax.devices()) < 2:  # a machine with one accelerator: nothing to compare
    print(f"{jax.default_backend()}: one device, and this needs two")
    raise SystemExit
dev0, dev1 = jax.devices()[:2]  # two of the four host devices
matmul = jax.jit(lambda a: a @ a)
large = jax.device_put(jnp.ones((2000, 2000)), dev0)
small = jax.device_put(jnp.ones((64, 64)), dev1)
matmul(large).block_until_ready()  # warm-up: compile for both devices and shapes
matmul(small).block_until_ready()

b = matmul(large)  # dispatched first, on device 0
s = matmul(small)  # dispatched second, on device 1
print("large (device 0) ready right after dispatch:", b.is_ready())
s.block_until_ready()
print("large (device 0) ready after blocking small (device 1):", b.is_ready())
print("large ready after blocking large:", b.block_until_ready().is_ready())
