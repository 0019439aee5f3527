# timeout: 60
"""While block_until_ready() waits, other Python threads run, and Ctrl-C interrupts the wait;
effects_barrier() cannot be interrupted.

The computation waited for is held by a host callback until an event is set, so how long it
runs is decided by the program, not by the machine. The Ctrl-C cases run this file again, in a
child interpreter each, with the wait to interrupt as argument.
"""

import os
import signal
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import jax
import jax.numpy as jnp
from jax.experimental import io_callback

gate, timed_out, ran_during_call = threading.Event(), [], []


def wait_for_gate(v):
    if threading.current_thread() is threading.main_thread():  # ran during the call
        ran_during_call.append(True)
    elif not gate.wait(5):
        timed_out.append(True)
    return v


held = jax.jit(lambda a: io_callback(wait_for_gate, jax.ShapeDtypeStruct(a.shape, a.dtype), a))
busy = jax.jit(lambda a: a @ a)
big, small = jnp.ones((1000, 1000)), jnp.ones(4)


def hold():
    """A held computation, dispatched: None if it always ran during its call."""
    busy(big).block_until_ready()  # warm-up: compile
    held(small).block_until_ready()
    # A computation with a host callback runs during the call when the device is idle, so queue
    # it behind a busy one; should the busy one have finished first (a loaded machine), retry.
    for _ in range(5):
        ran_during_call.clear()
        running = busy(big)
        y = held(small)
        if not ran_during_call:
            running.block_until_ready()
            return y
    return None


def interrupt(wait):
    """In a child: send this process SIGINT during ``wait``, say what it raised and when."""
    signal.signal(signal.SIGINT, signal.default_int_handler)  # even if started with it ignored
    y = hold()
    if y is None:
        print("synchronous")
        return
    threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT)).start()
    threading.Timer(1.5, gate.set).start()  # lets the computation finish, should the wait go on
    try:
        y.block_until_ready() if wait == "block_until_ready()" else jax.effects_barrier()
        print("nothing")
    except KeyboardInterrupt:
        print("KeyboardInterrupt", "while running" if not y.is_ready() else "after it finished")


def interrupted(wait):
    child = subprocess.run(
        [sys.executable, os.path.abspath(__file__), wait],
        capture_output=True,
        text=True,
        timeout=40,
    )
    return child.stdout.split() or [child.stderr.strip().splitlines()[-1]]


if len(sys.argv) == 2:
    interrupt(sys.argv[1])
    sys.exit()

WAITS = ("block_until_ready()", "effects_barrier()")
with ThreadPoolExecutor(2) as pool:
    raised = dict(zip(WAITS, pool.map(interrupted, WAITS), strict=True))

y = hold()
if y is None:
    print("the held computation always ran during its call: dispatch is synchronous here")
else:
    inside, counted = threading.Event(), []

    def count_then_open():
        inside.wait(20)
        while len(counted) < 1000 and inside.is_set():  # Python code: runs only with the GIL
            counted.append(1)
        gate.set()

    counter = threading.Thread(target=count_then_open)
    counter.start()
    # No forced switch: this thread keeps the GIL until a call releases it, so the other thread
    # can run only once this one is inside block_until_ready() (or has returned from it).
    interval = sys.getswitchinterval()
    sys.setswitchinterval(100.0)
    inside.set()
    y.block_until_ready()  # can return only once the other thread has opened the gate
    inside.clear()
    finished = y.is_ready()
    sys.setswitchinterval(interval)
    counter.join()
    print(
        "another thread ran 1000 Python steps while this one waited in block_until_ready():",
        len(counted) == 1000 and not timed_out,
    )
    print("the computation had finished when block_until_ready() returned:", finished)
for wait, what in raised.items():
    if what == ["synchronous"]:
        print(f"SIGINT during {wait}: not tried, the held computation ran during its call")
        continue
    print(f"SIGINT during {wait}: raises", what[0])
    print(
        f"SIGINT during {wait}: the computation was still held when it raised:",
        what[1:] == ["while", "running"],
    )
