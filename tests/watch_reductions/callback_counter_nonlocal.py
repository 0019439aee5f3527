# A benchmark helper that counts how often the jitted function really ran with an io_callback
# bumping a nonlocal counter (a check that the cache was hit), and returns the count after
# fetching the result to the host, with no effects barrier.
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback


def run(repeats: int) -> int:
    calls = 0

    def bump() -> np.ndarray:
        nonlocal calls
        calls += 1
        return np.zeros((), np.int32)

    @jax.jit
    def f(x):
        tick = io_callback(bump, jax.ShapeDtypeStruct((), jnp.int32), ordered=True)
        return jnp.sin(x) + tick

    x = jnp.ones((128,))
    for _ in range(repeats):
        out = f(x)
    np.asarray(out)
    return calls  # <- JW108 by chance


print("ran", run(3), "times")
