"""JW107 host-input-timed: a NumPy array is passed to a jitted function inside the timed region: it is copied to the device on every call, and the copy is timed as compute."""

import time
import jax
import jax.numpy as jnp
import numpy as np

step = jax.jit(lambda a: a @ a)
x = jnp.ones((10, 10))

batch = np.ones((10, 10))
step(batch).block_until_ready()
t0 = time.perf_counter()
step(batch).block_until_ready()  # <- JW107
elapsed = time.perf_counter() - t0


def time_func(func, name):  # a helper that times the function it is handed
    start = time.perf_counter()
    res = func()
    jax.block_until_ready(res)
    print(name, time.perf_counter() - start)


def bench(f, *args):
    f(*args).block_until_ready()
    start = time.perf_counter()
    f(*args).block_until_ready()
    return time.perf_counter() - start


def jax_jit():
    return step(batch)  # <- JW107


time_func(jax_jit, "jit")
time_func(jax_jit, "jit again")
time_func(lambda: step(batch), "lambda")  # <- JW107
bench(step, batch)  # <- JW107

def sweep(n):  # made on the host in the function, timed in a loop inside it (exojax)
    grid = np.logspace(0, 1, 1000)
    for _ in range(n):
        t0 = time.time()
        out = step(grid)  # <- JW107
        out.block_until_ready()
        print(time.time() - t0)


# %% done right

import time
import jax
import jax.numpy as jnp
import numpy as np

step = jax.jit(lambda a: a @ a)
x = jnp.ones((10, 10))

batch = jax.device_put(np.ones((10, 10)))
step(batch).block_until_ready()
t0 = time.perf_counter()
step(batch).block_until_ready()
elapsed = time.perf_counter() - t0


def time_func(func, name):
    start = time.perf_counter()
    res = func()
    jax.block_until_ready(res)
    print(name, time.perf_counter() - start)


def bench(f, *args):
    f(*args).block_until_ready()
    start = time.perf_counter()
    f(*args).block_until_ready()
    return time.perf_counter() - start


def jax_jit():
    return step(batch)


time_func(jax_jit, "jit")
time_func(jax_jit, "jit again")
time_func(lambda: step(batch), "lambda")
bench(step, batch)


def sweep(n):
    grid = jax.device_put(np.logspace(0, 1, 1000))
    for _ in range(n):
        t0 = time.time()
        out = step(grid)
        out.block_until_ready()
        print(time.time() - t0)


def evolve(n):
    psi = np.ones(1000)
    psi = jnp.asarray(psi)  # on the device from here: no copy in the timed calls
    for _ in range(n):
        t0 = time.time()
        step(psi).block_until_ready()
        print(time.time() - t0)
