"""`jaxwaits review` of a project: imports between its modules are followed, so what one module
jits, dispatches, waits on or times is known where another uses it. Each shape is one a real
project takes (named beside it); its files are written to a folder and reviewed as one, and each
line marked `# <- JWnnn` must be found, nothing else."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from harnesscheck import review
from harnesscheck.rules import RULES

STEP = """\
import jax
import jax.numpy as jnp

@jax.jit
def train_step(state, batch):
    return state + jnp.sum(batch)
"""

SHAPES: dict[str, dict[str, str]] = {
    "a step jitted in another module": {
        "model.py": STEP,
        "train.py": """\
import time
import jax.numpy as jnp
from model import train_step
state, batch = jnp.zeros(()), jnp.ones(8)
train_step(state, batch).block_until_ready()
t0 = time.perf_counter()
state = train_step(state, batch)
print(time.perf_counter() - t0)  # <- JW101
""",
    },
    "a star import (seistorch's fwi.py: from utils2 import *), and one __all__ limits": {
        "utils2.py": """\
import jax.numpy as jnp
from jax import lax

__all__ = ["forward"]


def forward(wave):  # an eager scan: it returns once the loop is dispatched
    return lax.scan(lambda c, x: (c + x, c), jnp.zeros(()), wave)


def hidden(wave):
    return jnp.sum(wave)
""",
        "fwi.py": """\
import time
import jax.numpy as jnp
from utils2 import *
wave = jnp.ones(8)
start = time.time()
rec = forward(wave)
end = time.time()  # <- JW101
print(end - start)
start = time.time()
total = hidden(wave)
print(time.time() - start)
""",
    },
    # riccardo-rende/jaxmc main.py: from jaxmc import *, its __init__: from .montecarlo import *
    "a package that re-exports a module by a star import, imported by a star": {
        "mc/__init__.py": "from .sweeps import *\n",
        "mc/sweeps.py": """\
import jax


def sweeps(n, s):
    return jax.lax.fori_loop(0, n, lambda i, c: c + 1.0, s)
""",
        "main.py": """\
import time
import jax.numpy as jnp
from mc import *
s = sweeps(10, jnp.zeros(()))
start = time.time()
s = sweeps(10, s)  # <- JW102 (a new lambda each call: fori_loop compiles again)
print(time.time() - start)  # <- JW101
""",
    },
    # thiomajid/xlstm_jax training/trainer.py: Trainer(eval_step_fn=eval_step), kept in
    # self._eval_step_fn (annotated), called in a timed evaluation; x.shape read is no wait
    "a step handed to a class's constructor by keyword, kept in the object": {
        "trainer.py": """\
from time import perf_counter
import jax.numpy as jnp


class Trainer:
    def __init__(self, model, eval_step_fn):
        self.model = model
        self._eval_step_fn: object = eval_step_fn

    def evaluate(self, batches):
        start = perf_counter()
        for batch in batches:
            tokens = jnp.array(batch)
            if tokens.shape[0] == 1:
                tokens = tokens.squeeze(0)
            self._eval_step_fn(self.model, tokens)
        return perf_counter() - start  # <- JW101
""",
        "train.py": """\
import jax
from trainer import Trainer


@jax.jit
def eval_step(model, tokens):
    return (model * tokens).sum()


trainer = Trainer(model=2.0, eval_step_fn=eval_step)
print("timing:", trainer.evaluate([[1.0, 2.0]]))
""",
    },
    # aod321/allen_v1_chen_2022_jax scripts/test_billeh_brainstate.py: network =
    # V1NetworkBrainstate.from_billeh(...), a classmethod returning cls(...), then
    # network.update(x) timed unwaited
    "an instance made by a classmethod of a class in another module": {
        "net.py": """\
import jax.numpy as jnp


class Network:
    def __init__(self, weights):
        self.weights = weights

    @classmethod
    def from_config(cls, n):
        return cls(jnp.ones((n, n)))

    def update(self, x):
        return jnp.tanh(self.weights @ x)
""",
        "run.py": """\
import time
import jax.numpy as jnp
from net import Network
network = Network.from_config(4)
x = jnp.ones(4)
network.update(x).block_until_ready()
start = time.time()
out = network.update(x)
print(time.time() - start)  # <- JW101
""",
    },
    "a package re-exporting its step, imported relatively and by module": {
        "pkg/__init__.py": "from .steps import train_step\n",
        "pkg/steps.py": STEP,
        "pkg/bench.py": """\
import time
import jax.numpy as jnp
from . import steps
state, batch = jnp.zeros(()), jnp.ones(8)
t0 = time.perf_counter()
state = steps.train_step(state, batch).block_until_ready()  # <- JW102
print(time.perf_counter() - t0)
""",
        "main.py": """\
import time
import jax.numpy as jnp
import pkg
state, batch = jnp.zeros(()), jnp.ones(8)
pkg.train_step(state, batch).block_until_ready()
t0 = time.perf_counter()
state = pkg.train_step(state, batch)
print(time.perf_counter() - t0)  # <- JW101
""",
    },
    # instadeepai/jumanji jumanji/training/{timer,train}.py: `with train_timer:` around the
    # first call of the epoch's pmapped step
    "a timer class from another module, around the first call": {
        "timer.py": """\
import time

class Timer:
    def __enter__(self):
        self._start = time.perf_counter()
        return self

    def __exit__(self, *exc):
        self.elapsed = time.perf_counter() - self._start
        return False
""",
        "train.py": """\
import jax
import jax.numpy as jnp
from timer import Timer
epoch_fn = jax.pmap(lambda s: s + 1)
state = jnp.zeros((1,))
train_timer = Timer()
for epoch in range(3):
    with train_timer:
        state = epoch_fn(state)  # <- JW102
        jax.block_until_ready(state)
""",
    },
    # google-research/big_vision big_vision/{utils,train}.py: `with
    # u.chrono.log_timing("z/secs/update0"):` around the jitted update, not waited on
    "a @contextmanager method of another module's singleton, not waited in": {
        "utils.py": """\
import contextlib
import time

class Chrono:
    @contextlib.contextmanager
    def log_timing(self, name):
        t0 = time.monotonic()
        yield
        print(name, time.monotonic() - t0)

chrono = Chrono()
""",
        "train.py": """\
import jax
import jax.numpy as jnp
import utils as u
update_fn = jax.jit(lambda s: s + 1)
state = jnp.zeros(())
update_fn(state).block_until_ready()
for step in range(3):
    with u.chrono.log_timing("update"):  # <- JW101
        state = update_fn(state)
""",
    },
    "a timing helper of another module, handed a jitted step": {
        "bench_utils.py": """\
import time

def bench(f, *args):
    f(*args)
    t0 = time.perf_counter()
    out = f(*args)
    return time.perf_counter() - t0  # <- JW101
""",
        "run.py": """\
import jax
import jax.numpy as jnp
from bench_utils import bench
step = jax.jit(lambda a: a @ a)
bench(step, jnp.ones((4, 4)))
""",
    },
    "a timing decorator of another module": {
        "profiling.py": """\
import time

def timed(fn):
    def wrapper(*args):
        t0 = time.perf_counter()
        out = fn(*args)
        print(time.perf_counter() - t0)  # <- JW101
        return out
    return wrapper
""",
        "run.py": """\
import jax.numpy as jnp
import profiling as prof

@prof.timed
def norm(a):
    return jnp.sqrt(jnp.sum(a * a))
""",
    },
    "a factory of another module that returns a jitted step": {
        "steps.py": """\
import jax

def make_train_step(lr):
    def step(p, g):
        return p - lr * g
    return jax.jit(step)
""",
        "train.py": """\
import time
import jax.numpy as jnp
from steps import make_train_step
train_step = make_train_step(0.1)
p = jnp.ones(4)
t0 = time.time()
p = train_step(p, p)  # <- JW102
p.block_until_ready()
print(time.time() - t0)
""",
    },
    "a partial of a jitted step handed to a timing helper": {
        "bench.py": """\
import functools
import time
import jax
import jax.numpy as jnp

step = jax.jit(lambda a, b: a @ b)

def timeit_once(f):
    f()
    t0 = time.perf_counter()
    f()
    return time.perf_counter() - t0  # <- JW101

x = jnp.ones((4, 4))
timeit_once(functools.partial(step, x, x))
""",
    },
    # google-research/big_vision .../retrieval.py: `self._embed(..., self._embed_images_p, ...)`
    "a method handed a jitted attribute of its object": {
        "evaluator.py": """\
import time
import jax
import jax.numpy as jnp

class Evaluator:
    def __init__(self):
        self._embed_p = jax.jit(lambda b: b * 2)

    def _embed(self, batches, embed_fn):
        embed_fn(batches[0]).block_until_ready()
        t0 = time.time()
        out = [embed_fn(b) for b in batches]
        print("embedded in", time.time() - t0)  # <- JW101
        return out

    def run(self):
        return self._embed([jnp.ones(3)] * 4, self._embed_p)
""",
    },
    # kingoflolz/mesh-transformer-jax device_train.py: a checkpoint writer of another module
    # that moves arrays with jax, then writes them in a thread pool (which waits): not judged
    "a helper of another module that hands its arrays to a pool that writes them": {
        "checkpoint.py": """\
import functools
from multiprocessing.pool import ThreadPool
import jax
import numpy as np

def write(chunk, path):
    np.savez(path, chunk)

def write_ckpt(tree, path):
    leaves = jax.device_put(tree, jax.devices("cpu")[0])
    with ThreadPool(4) as pool:
        pool.map(functools.partial(write, path=path), leaves)
""",
        "train.py": """\
import time
from checkpoint import write_ckpt
start = time.time()
write_ckpt(state, "ckpt/")
print(f"Wrote checkpoint in {time.time() - start}s")
""",
    },
    # AI-Hypercomputer/maxdiffusion pipelines/wan: WanPipeline2_1(WanPipeline) times its
    # "conditioning" stage, blocking two of the inherited _prepare_model_inputs' results
    "a method inherited from another module's class, several results blocked in part": {
        "pipelines/__init__.py": "",
        "pipelines/base.py": """\
import jax
import jax.numpy as jnp

class Pipeline:
    def _prepare(self, prompt):
        latents = jax.random.normal(jax.random.key(0), (4,))
        embeds = self.encode(prompt)
        negative = jnp.zeros(3)
        return latents, embeds, negative

    def encode(self, prompt):
        return jnp.ones(3)
""",
        "pipelines/two.py": """\
import time
import jax
from .base import Pipeline

class PipelineTwo(Pipeline):
    def __call__(self, prompt):
        t0 = time.perf_counter()
        latents, embeds, negative = self._prepare(prompt)
        latents.block_until_ready()
        embeds.block_until_ready()
        return time.perf_counter() - t0  # <- JW103

    def all_blocked(self, prompt):
        t0 = time.perf_counter()
        latents, embeds, negative = self._prepare(prompt)
        jax.block_until_ready((latents, embeds, negative))
        return time.perf_counter() - t0
""",
    },
    # FLAIROx/JaxMARL tests/switch_riddle/benchmark.py: the rollout manager of the module beside
    # it jits its methods; an instance's batch_step is timed in a loop and never waited on
    "an instance of another module's class whose methods are jitted": {
        "rollout.py": """\
from functools import partial
import jax

class RolloutManager:
    def __init__(self, env):
        self.env = env

    @partial(jax.jit, static_argnums=0)
    def batch_step(self, key, states):
        return jax.vmap(self.env.step)(key, states)
""",
        "benchmark.py": """\
import time
import jax
from rollout import RolloutManager

def get_jax_time(env, state, key, steps):
    wrapped_env = RolloutManager(env)
    state = wrapped_env.batch_step(key, state)
    jax.block_until_ready(state)
    t0 = time.time()
    for i in range(steps):
        key, key_s = jax.random.split(key)
        state = wrapped_env.batch_step(key_s, state)
    return time.time() - t0  # <- JW101
""",
    },
    # sanchit-gandhi/whisper-jax benchmarks/run_pjit.py: the package's partitioner returns a
    # wrapper whose __call__ calls the pjitted function (pjit_fn = pjit, in a branch)
    "a partitioner method that returns a wrapped pjit, re-exported by the package": {
        "whisper/__init__.py": "from .partitioner import PjitPartitioner\n",
        "whisper/partitioner.py": """\
from jax.experimental.pjit import pjit

class PjittedFnWithContext:
    def __init__(self, pjitted_fn, mesh):
        self._pjitted_fn = pjitted_fn
        self._mesh = mesh

    def __call__(self, *args):
        with self._mesh:
            return self._pjitted_fn(*args)

class PjitPartitioner:
    def __init__(self, mesh, cpu=False):
        self.mesh, self._cpu = mesh, cpu

    def partition(self, fn, in_axis_resources, out_axis_resources):
        if self._cpu:
            pjit_fn = fallback
        else:
            pjit_fn = pjit
        pjitted = pjit_fn(fn, in_axis_resources=in_axis_resources)
        return PjittedFnWithContext(pjitted, self.mesh)
""",
        "run_pjit.py": """\
import time
from whisper import PjitPartitioner

def main(mesh, generate, params, batches):
    partitioner = PjitPartitioner(mesh)
    p_generate = partitioner.partition(generate, None, None)
    p_generate(params, batches[0])
    start = time.time()
    for batch in batches:
        p_generate(params, batch)
    runtime = time.time() - start  # <- JW101
    print(runtime)
""",
    },
    # AI-Hypercomputer/maxdiffusion generate_flux2klein.py, generate_flux_multi_res.py: the
    # parameters placed leaf by leaf with the project's own placing function (or a partial of
    # it) handed to tree_map, and the placement timed with nothing waited on
    "a tree mapped with the project's placing function": {
        "max_utils.py": """\
import jax

def device_put_replicated(x, sharding):
    return jax.make_array_from_callback(x.shape, sharding, lambda index: x[index])
""",
        "generate.py": """\
import functools
import time
import jax
from max_utils import device_put_replicated

def run(params, shardings, sharding, t5_params):
    t0 = time.time()
    params = jax.tree_util.tree_map(device_put_replicated, params, shardings)
    print(f"placement: {time.time() - t0}")  # <- JW101
    place = functools.partial(device_put_replicated, sharding=sharding)
    s0 = time.perf_counter()
    t5_params = jax.tree.map(place, t5_params)
    print(f"moving the encoder: {time.perf_counter() - s0}")  # <- JW101
    s1 = time.perf_counter()
    t5_params = jax.tree.map(lambda a: len(a.shape), t5_params)
    print(f"shapes: {time.perf_counter() - s1}")
    return params, t5_params
""",
    },
    "an import of a module the project does not have": {
        "train.py": """\
import time
from model import train_step
t0 = time.time()
state = train_step(state, batch)
print(time.time() - t0)
""",
    },
    "jitted attributes of another module's class, first called in a timed region": {
        "env.py": """\
import jax


class Env:
    def __init__(self):
        self.v_step = jax.jit(jax.vmap(lambda s: s + 1))
""",
        "bench.py": """\
import time
import jax.numpy as jnp
from env import Env
env = Env()
state = jnp.zeros((2, 4))
t0 = time.time()
state = env.v_step(state)  # <- JW102
state.block_until_ready()
print(time.time() - t0)
""",
    },
    "a timer function imported from its own file, the package's __init__ not reviewed (jaxsnn)": {
        "pkg/utils/time_it.py": """\
import time


def time_it(timed_function, *args):
    start = time.time()
    res = timed_function(*args)
    return res, time.time() - start  # <- JW101
""",
        "pkg/training.py": """\
import jax
from pkg.utils import time_it


def epoch(update, state, batches):
    res, duration = time_it(jax.lax.scan, update, state, batches)
    return res, duration
""",
    },
    "a timer's method handed a function on by another of its methods (JAX-ENT)": {
        "timers.py": """\
import time


class StepTimer:
    def phase(self, fn):
        start = time.perf_counter()
        fn()
        return time.perf_counter() - start  # <- JW101

    def step(self, forward, backward):
        return self.phase(forward) + self.phase(backward)
""",
        "run.py": """\
import jax
import jax.numpy as jnp
from timers import StepTimer

f = jax.jit(lambda v: v * 2)
x = jnp.ones(4)
timer = StepTimer()
for _ in range(3):
    timer.step(lambda: f(x), lambda: jax.grad(lambda v: (v * v).sum())(x))
""",
    },
    "the first call of a method of another module's class that calls a jitted function": {
        "envs.py": """\
import jax

_step = jax.jit(lambda s: s + 1)


class Env:
    def step(self, s):
        return _step(s)
""",
        "bench.py": """\
import time
import jax.numpy as jnp
from envs import Env

env = Env()
x = jnp.ones(3)
t0 = time.perf_counter()
for _ in range(5):
    s = env.step(x)  # <- JW102
s.block_until_ready()
print("steps/s", 5 / (time.perf_counter() - t0))
""",
    },
    "a module named as the library it imports, which finds itself (cosmocnc_jax's hmf.py)": {
        "hmf.py": """\
import time
import jax
import hmf as hmf_package

step = jax.jit(lambda v: v + 1)
t0 = time.time()
y = step(1.0)  # <- JW102
print(time.time() - t0)  # <- JW101
""",
    },
    "a class of another module whose constructor traces (ESSOS's Tracing)": {
        "dynamics.py": """\
from functools import partial
import jax

class Tracing:
    def __init__(self, y0):
        self.y0 = y0
        self.trajectories = self.trace()

    @partial(jax.jit, static_argnums=(0,))
    def trace(self):
        return self.y0 * 2
""",
        "compare.py": """\
import time
import jax
import jax.numpy as jnp
from dynamics import Tracing

t1 = time.time()
tracing = jax.block_until_ready(Tracing(jnp.ones(3)))  # <- JW102
print("ESSOS", time.time() - t1)
""",
    },
    "a solver handed as a parameter annotated with its class, results handed to a helper seen": {
        # stac-mjx: stac_core_obj: stac_core.StacCore; utils.get_site_xpos only indexes
        "stac_core.py": """\
import jax

_opt = jax.jit(lambda q: q * 2)

class StacCore:
    def q_opt(self, q):
        return _opt(q)
""",
        "utils.py": "def site_xpos(data, idx):\n    return data[idx]\n",
        "compute.py": """\
import time
import stac_core
import utils

def pose(stac_core_obj: stac_core.StacCore, q, idx):
    sites = []
    start = time.time()
    q = stac_core_obj.q_opt(q)  # <- JW102
    sites.append(utils.site_xpos(q, idx))
    print("pose", time.time() - start)  # <- JW101
""",
    },
    "a function made by a factory, vmapped and renamed before it is timed (lop-jax)": {
        "train.py": """\
from time import time
import jax

def make_train(n):
    step = jax.jit(lambda a: a * n)

    def train(rng):
        return step(rng)

    return train

train_fn = make_train(3)
vmaps_train = train_fn
for i in range(2):
    vmaps_train = jax.vmap(vmaps_train)
train_jit = vmaps_train
t = time()
out = train_jit(1.0)  # <- JW102
new_t = time()  # <- JW101
print("Total runtime:", new_t - t)
""",
    },
    "two modules that import each other": {
        # a cycle: b, resolved while a is, sees a's own names (its step is jitted), so b.run
        # dispatches and the reading in a comes before that work is done
        "a.py": "import time\nimport b\nimport jax\nstep = jax.jit(lambda x: x)\n"
        "t0 = time.time()\nb.run()\nprint(time.time() - t0)  # <- JW101\n",
        "b.py": "import a\n\ndef run():\n    return a.step(1)\n",
    },
}


def _expected(files: dict[str, str]) -> list[tuple[str, str, int]]:
    return sorted(
        (name, match[1], number)
        for name, code in files.items()
        for number, line in enumerate(code.splitlines(), start=1)
        if (match := re.search(r"# <- (JW\d+)", line))
    )


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("jobs", [1, 2])
def test_a_project_is_reviewed_as_one(tmp_path: Path, shape: str, jobs: int) -> None:
    """On one core and on two (each worker process reads the modules its files import, and
    what a module hands another's helper reaches it across processes)."""
    for name, code in SHAPES[shape].items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(code)
    padding = {f"other_{i}.py": "x = 1\n" for i in range(130 if jobs == 2 else 0)}
    for name, code in padding.items():  # enough files for review() to use two processes
        (tmp_path / name).write_text(code)
    done = review.review([tmp_path], set(RULES), jobs=jobs)
    assert not done.unreadable
    found = sorted(
        (found.path.relative_to(tmp_path).as_posix(), found.finding.rule, found.finding.line)
        for found in done.findings
    )
    assert found == _expected(SHAPES[shape])


def test_a_file_reviewed_alone_finds_the_modules_beside_it(tmp_path: Path) -> None:
    files = SHAPES["a step jitted in another module"]
    for name, code in files.items():
        (tmp_path / name).write_text(code)
    done = review.review([tmp_path / "train.py"], set(RULES))
    assert [(f.finding.rule, f.finding.line) for f in done.findings] == [("JW101", 8)]


def test_what_a_file_reviewed_alone_cannot_follow_is_said(tmp_path: Path) -> None:
    """A timed region that hands its results to code of a module not among the files reviewed
    is not judged, and the review says so (never a guess); reviewed with that module, it is."""
    bench = """\
import time
import jax
import jax.numpy as jnp
from metrics import log_metrics

step = jax.jit(lambda x: x @ x)
x = jnp.ones((4, 4))
step(x).block_until_ready()
t0 = time.time()
y = step(x)
log_metrics(y)
print(time.time() - t0)
"""
    (tmp_path / "bench").mkdir()
    (tmp_path / "bench" / "bench.py").write_text(bench)
    alone = review.review([tmp_path / "bench" / "bench.py"], set(RULES))
    assert not alone.findings
    assert alone.notes == [
        f"{tmp_path / 'bench' / 'bench.py'}:12: the time read here is not judged: it hands timed "
        "results to log_metrics() of metrics, whose code is not among the files reviewed"
    ]
    (tmp_path / "bench" / "metrics.py").write_text(
        "def log_metrics(y):\n    print(float(y[0, 0]))\n"
    )
    whole = review.review([tmp_path / "bench"], set(RULES))
    assert not whole.notes and not whole.findings  # followed: log_metrics waits
