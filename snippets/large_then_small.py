"""Dispatch a large product, then a small one, and block on the small one only: first with both
dispatched from this thread, then with the large one dispatched by another thread."""

import threading

import jax
import jax.numpy as jnp

matmul = jax.jit(lambda a: a @ a)
# A product still running when the next line looks: 2000x2000 on CPU; a GPU does that in
# microseconds, so there it is 16384x16384.
n = 2000 if jax.default_backend() == "cpu" else 16384
small, large = jnp.ones((64, 64)), jnp.ones((n, n))
matmul(small).block_until_ready()  # warm-up: compile both shapes first
matmul(large).block_until_ready()

b = matmul(large)
s = matmul(small)  # dispatched after b
print("large ready right after dispatch:", b.is_ready())
s.block_until_ready()
print("large ready after blocking on small:", b.is_ready())

# The same order across threads: another thread dispatches the large product first.
theirs = {}
dispatched = threading.Event()


def dispatch_large():
    theirs["large"] = matmul(large)
    dispatched.set()


other = threading.Thread(target=dispatch_large)
other.start()
dispatched.wait(30)
s = matmul(small)  # dispatched after the other thread's large product
s.block_until_ready()
print("another thread's large, ready after blocking on small:", theirs["large"].is_ready())
other.join()
