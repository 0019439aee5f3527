# A worker thread dispatches work of its own that nobody waits on, while the main thread
# times a step it does wait on: each thread has its own stream, and the main thread's
# measurement is right.
import threading
import time

import jax
import jax.numpy as jnp

f = jax.jit(lambda a: jnp.tanh(a @ a))
x = jnp.ones((200, 200))
f(x).block_until_ready()
done = threading.Event()


def background():
    for _ in range(3):
        f(x)
    done.set()


worker = threading.Thread(target=background)
worker.start()
t0 = time.perf_counter()
f(x).block_until_ready()
elapsed = time.perf_counter() - t0
worker.join()
print("measured:", elapsed > 0, done.is_set())
