"""effects_barrier() only sees the effect tokens of the thread that calls it."""

import threading

import jax
import jax.numpy as jnp
from jax._src import dispatch


@jax.jit
def effectful(a):
    jax.debug.callback(lambda v: None, a[0])
    return a + 1


seen_by_worker = []


def worker():
    effectful(jnp.ones(3)).block_until_ready()
    seen_by_worker.append(len(dispatch.runtime_tokens.output_runtime_tokens))


thread = threading.Thread(target=worker)
thread.start()
thread.join()
print("runtime tokens held by the worker thread after its dispatch:", seen_by_worker[0])
main_tokens = dispatch.runtime_tokens.output_runtime_tokens
print("runtime tokens visible to the main thread's effects_barrier():", len(main_tokens))
