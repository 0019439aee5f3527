# timeout: 60
"""On CPU a call returns with its work done when the work is cheap, when jax_debug_nans or
jax_debug_infs is on, or when async dispatch was turned off with jax.config.update; setting
JAX_CPU_ENABLE_ASYNC_DISPATCH in the environment does not turn it off."""

import os
import subprocess
import sys

import jax
import jax.numpy as jnp

CHILD = """
import jax, jax.numpy as jnp
if {update}:
    jax.config.update("jax_cpu_enable_async_dispatch", False)  # before the first computation
matmul = jax.jit(lambda a: a @ a)
x = jnp.ones(({n}, {n}))
matmul(x).block_until_ready()
print(matmul(x).is_ready())
"""

matmul = jax.jit(lambda a: a @ a)
add = jax.jit(lambda a: a + 1)
# A large product: 1000x1000 on CPU; a GPU computes that in microseconds, so there 16384x16384.
n = 1000 if jax.default_backend() == "cpu" else 16384
x, small = jnp.ones((n, n)), jnp.ones(4)
matmul(x).block_until_ready()  # warm-up: compile
add(small).block_until_ready()


def ready_at_return(f, a):
    y = f(a)
    ready = y.is_ready()
    y.block_until_ready()  # so that the next call finds the device idle
    return ready


print("default: a large product is ready right after the call:", ready_at_return(matmul, x))
print(
    "default: a 4-element sum is ready right after the call, 100 calls out of 100:",
    all(ready_at_return(add, small) for _ in range(100)),
)

for flag in ("jax_debug_nans", "jax_debug_infs"):
    jax.config.update(flag, True)
    matmul(x).block_until_ready()
    print(f"{flag} on: a large product is ready right after the call:", ready_at_return(matmul, x))
    jax.config.update(flag, False)

for how, update, env in (
    ("async dispatch off by jax.config.update", True, {}),
    # The option is a flag, not a state: it is not read from the environment.
    (
        "JAX_CPU_ENABLE_ASYNC_DISPATCH=false in the environment",
        False,
        {"JAX_CPU_ENABLE_ASYNC_DISPATCH": "false"},  # jaxwaits: ignore[JW109] does nothing
    ),
):
    child = subprocess.run(
        [sys.executable, "-c", CHILD.format(update=update, n=n)],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        timeout=60,
    )
    print(
        f"{how}: a large product is ready right after the call:",
        child.stdout.strip() or child.stderr.strip().splitlines()[-1],
    )
