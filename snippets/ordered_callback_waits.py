# timeout: 90
"""On CPU, a computation with an ordered callback, dispatched while the same thread's earlier one
with the same ordered effect is still pending: what its call waits for, and what it raises when
the earlier one fails.

Each earlier computation is queued behind a large product this thread dispatched, so that it is
still pending when the next call is made.
"""

import time

import jax
import jax.numpy as jnp
from jax.experimental import io_callback

effects = []  # the names of the callbacks that have run, in the order they ran
failing = []  # not empty once the warm-ups are done: a callback made to fail fails from then on


def effect(name, kind, fails=False):
    """A jitted computation whose callback of ``kind`` records ``name``, then fails if asked."""

    def callback(v):
        time.sleep(0.2)  # a slow side effect: not done unless the call waited for it
        effects.append(name)
        if fails and failing:
            raise ValueError(f"{name} failed")

    def f(a):
        y = a @ a
        if kind == "debug.callback":
            jax.debug.callback(callback, y[0, 0], ordered=True)
        else:
            io_callback(callback, None, y[0, 0], ordered=kind == "ordered io")
        return y

    return jax.jit(f)


def raised(call):
    """What a call raised, named by the failure it reports."""
    try:
        call()  # jaxwaits: ignore[JW110] whether the call itself raises is the question
    except RuntimeError as e:
        return "a RuntimeError from the earlier one" if "earlier failed" in str(e) else repr(e)
    return "nothing"


busy = jax.jit(lambda a: a @ a @ a)
# A product still running when the next line looks: 2000x2000 on CPU.
big, x = jnp.ones((2000, 2000)), jnp.ones((300, 300))
busy(big).block_until_ready()  # warm-up: compile
cases = {  # the later computation's callback, behind the earlier one's
    "ordered io behind ordered io": ("ordered io", "ordered io"),
    "ordered debug.callback behind ordered debug.callback": ("debug.callback", "debug.callback"),
    "ordered io behind unordered io": ("unordered io", "ordered io"),
    "ordered io behind ordered debug.callback": ("debug.callback", "ordered io"),
}
for label, (earlier_kind, later_kind) in cases.items():
    earlier, later = effect("earlier", earlier_kind), effect("later", later_kind)
    jax.block_until_ready((earlier(x), later(x)))  # warm-up: compile
    jax.effects_barrier()
    effects.clear()
    running = busy(big)
    y1 = earlier(x)  # queued behind the large product
    print(f"{label}: the earlier one pending at the call:", not y1.is_ready())
    y2 = later(x)
    done = effects == ["earlier", "later"]
    print(f"{label}: at return: both effects done {done}, output ready {y2.is_ready()}")
    jax.block_until_ready((running, y1, y2))
    jax.effects_barrier()

# The earlier computation fails: its callback raises once the large product has finished.
label = "ordered io behind a failing ordered io"
earlier = effect("earlier", "ordered io", fails=True)
later = effect("later", "ordered io")
jax.block_until_ready((earlier(x), later(x)))  # warm-up: compile
jax.effects_barrier()
effects.clear()
failing.append(True)
running = busy(big)
y1 = []
raised(lambda: y1.append(earlier(x)))  # a release that runs it during its call raises here
print(f"{label}: the earlier one pending at the call:", bool(y1) and not y1[0].is_ready())
print(f"{label}: the call raises {raised(lambda: later(x))}")
print(f"{label}: effects_barrier() then raises {raised(jax.effects_barrier)}")
running.block_until_ready()
print(f"{label}: its own callback ran at all:", "later" in effects)
