# env: XLA_FLAGS=--xla_force_host_platform_device_count=4
# timeout: 90
"""With two processes, an array sharded over both is not fully addressable: blocking it waits
for this process's shard only, and fetching it raises RuntimeError.

The snippet starts two JAX processes on this machine (this file, with arguments), which meet
over localhost, one CPU device each. Process 1 computes its shard with a host callback that
waits for a file which process 0 writes only once its own block_until_ready() has returned:
had that block waited for process 1's shard, neither would ever finish. Only this parent prints.
(The env line above is that of the page that runs it; the two processes set their own.)
"""

import os
import socket
import subprocess
import sys
import tempfile
import time


def child(process_id, port, release):
    import jax
    import numpy as np
    from jax.experimental import io_callback
    from jax.sharding import Mesh, NamedSharding, PartitionSpec

    def show(key, value):  # to a file of its own: gloo writes to stdout
        with open(f"{release}-{process_id}", "a") as results:
            results.write(f"process {process_id}: {key}: {value}\n")

    try:  # the default since jax 0.5.1; older releases have no collectives across processes
        jax.config.update("jax_cpu_collectives_implementation", "gloo")
    except Exception:
        pass
    jax.distributed.initialize(
        f"localhost:{port}", num_processes=2, process_id=process_id, initialization_timeout=60
    )
    show("devices, local devices", f"{len(jax.devices())}, {len(jax.local_devices())}")
    mesh = Mesh(np.array(jax.devices()), ("x",))
    sharding = NamedSharding(mesh, PartitionSpec("x"))

    def wait_for_release(v):
        for _ in range(3000):  # up to 30 s
            if os.path.exists(release):
                break
            time.sleep(0.01)
        return v

    ones = jax.device_put(np.ones((2, 1000), np.float32), jax.local_devices()[0])
    if process_id == 1:
        held = jax.jit(
            lambda a: io_callback(wait_for_release, jax.ShapeDtypeStruct(a.shape, a.dtype), a)
        )
        shard = held(ones)
    else:
        shard = ones
    a = jax.make_array_from_single_device_arrays((4, 1000), sharding, [shard])
    show("fully addressable", a.is_fully_addressable)
    show("addressable shards", len(a.addressable_shards))
    returned = a.block_until_ready() is a
    if process_id == 0:
        open(release, "w").close()  # lets process 1's shard finish
        show("block_until_ready() returned before process 1's shard could finish", returned)
    for name, fetch in (("np.asarray", np.asarray), ("jax.device_get", jax.device_get)):
        try:
            fetch(a)
            show(f"{name} raises", "nothing")
        except Exception as e:
            show(f"{name} raises", type(e).__name__)
    replicated = jax.jit(lambda v: v * 2, out_shardings=NamedSharding(mesh, PartitionSpec()))(a)
    show("a replicated result: fully addressable", replicated.is_fully_addressable)
    show(
        "a replicated result: np.asarray raises",
        "nothing" if np.asarray(replicated).shape == (4, 1000) else "?",
    )
    jax.distributed.shutdown()


if len(sys.argv) == 4:
    child(int(sys.argv[1]), int(sys.argv[2]), sys.argv[3])
    sys.exit()

with socket.socket() as s:
    s.bind(("localhost", 0))
    port = s.getsockname()[1]
env = {
    **os.environ,
    "JAX_PLATFORMS": "cpu",
    "JAX_NUM_CPU_DEVICES": "1",
    "XLA_FLAGS": "--xla_force_host_platform_device_count=1",
}
with tempfile.TemporaryDirectory() as folder:
    release = os.path.join(folder, "release")
    children = [
        subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), str(i), str(port), release],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for i in range(2)
    ]
    for i, c in enumerate(children):
        try:
            out, err = c.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            c.kill()
            out, err = c.communicate()
            err += "\ntimed out"
        if os.path.exists(f"{release}-{i}"):
            print(open(f"{release}-{i}").read(), end="")
        if c.returncode != 0:
            print(f"process {i} failed:", (err.strip().splitlines() or ["?"])[-1])
