# timeout: 120
"""What jax.effects_barrier() raises when effectful computations have failed: the errors of the
latest effectful computation the calling thread dispatched to the device, and of the latest one
of each ordered effect, only.

Each case dispatches its computations behind a busy product, so that none runs during its call;
their host callbacks wait for an event, then fail (or not), and the barrier is called once all
of them have finished.
"""

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import jax
import jax.numpy as jnp
from jax.experimental import io_callback

gate = threading.Event()
dispatching = {threading.main_thread()}  # the Python threads that dispatch these computations
ran_during_call = []


def effect(outcome, ordered=False):
    """A jitted computation whose io_callback waits for the gate, then raises ``outcome``'s
    error ("first failure" / "second failure"), or returns if ``outcome`` is None."""

    def callback(v):
        if threading.current_thread() in dispatching:  # run during the call
            ran_during_call.append(True)
            return v
        gate.wait(30)
        if outcome is not None:
            raise ValueError(outcome)
        return v

    spec = jax.ShapeDtypeStruct((4,), jnp.float32)
    return jax.jit(lambda a: io_callback(callback, spec, a, ordered=ordered))


busy = jax.jit(lambda a: a @ a)
big, small = jnp.ones((1000, 1000)), jnp.ones(4)
kinds = {
    "succeeds": effect(None),
    "first failure": effect("first failure"),
    "second failure": effect("second failure"),
    "first failure, ordered": effect("first failure", ordered=True),
}
busy(big).block_until_ready()  # warm-up: compile (each callback runs during its call here)
for f in kinds.values():
    f(small).block_until_ready()
jax.effects_barrier()


def raised(call):
    """What a call raised, named by the failures it reports."""
    try:
        call()
    except ExceptionGroup as group:
        inner = " and ".join(failure(e) for e in group.exceptions)
        return f"an ExceptionGroup, not a RuntimeError, of {inner}"
    except RuntimeError as e:
        return failure(e)
    return "nothing"


def failure(error):
    names = [n for n in ("first failure", "second failure") if n in str(error)]
    return f"a RuntimeError from the {' and '.join(names) or 'runtime'}"


def pending(names):
    """Dispatch the computations named, queued behind a busy product, and let them run and
    finish; the results, or None if one ran during its call (dispatch is synchronous)."""
    for _ in range(5):
        ran_during_call.clear()
        gate.clear()
        running = busy(big)
        results = [kinds[name](small) for name in names]
        if not ran_during_call:
            break
        running.block_until_ready()
        raised(jax.effects_barrier)
    if ran_during_call:
        return None
    gate.set()
    for _ in range(3000):  # up to 30 s for the callbacks to finish; is_ready() never waits
        if all(r.is_ready() for r in results):
            break
        time.sleep(0.01)
    return results


# A failure in another thread: its barrier sees it, this thread's does not.
with ThreadPoolExecutor(max_workers=1) as worker:
    dispatcher = worker.submit(threading.current_thread).result()
    dispatching.add(dispatcher)
    results = worker.submit(pending, ["first failure"]).result()
    if results is None:
        print("another thread: a callback ran during its call: dispatch is synchronous here")
    else:
        print(
            "another thread's failure: this thread's effects_barrier() raises",
            raised(jax.effects_barrier),
        )
        print(
            "another thread's failure: blocking on its result here raises",
            raised(results[0].block_until_ready),
        )
        theirs = worker.submit(raised, jax.effects_barrier).result()
        print("another thread's failure: that thread's effects_barrier() raises", theirs)

cases = {
    "a failure, then a computation whose effect succeeds": ["first failure", "succeeds"],
    "a computation whose effect succeeds, then a failure": ["succeeds", "first failure"],
    "two failures with different errors": ["first failure", "second failure"],
    "an ordered effect's failure, then another failure": [
        "first failure, ordered",
        "second failure",
    ],
}
for label, names in cases.items():
    results = pending(names)
    if results is None:
        print(f"{label}: a callback ran during its call: dispatch is synchronous here")
        continue
    print(f"{label}: effects_barrier() raises {raised(jax.effects_barrier)}")
    if label == "two failures with different errors":
        print(
            f"{label}: jax.block_until_ready of both raises",
            raised(lambda results=results: jax.block_until_ready(results)),
        )
    raised(jax.effects_barrier)  # before jax 0.12.0 a barrier raised a failure again and again
