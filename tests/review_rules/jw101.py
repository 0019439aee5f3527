"""JW101 timer-before-wait: the timer stops before the timed JAX work is waited on, so it measures the dispatch."""

import contextlib
import time
import jax
import jax.numpy as jnp
import numpy as np

step = jax.jit(lambda a: a @ a)
x = jnp.ones((10, 10))

step(x).block_until_ready()
t0 = time.perf_counter()
y = step(x)
elapsed = time.perf_counter() - t0  # <- JW101

a = jnp.ones((10, 10))
b = jnp.ones((10, 10))
t1 = time.perf_counter()
for _ in range(10):
    c = a + b
elapsed = time.perf_counter() - t1  # <- JW101

from flax import jax_utils

t2 = time.perf_counter()
y = jax_utils.unreplicate(step(x))
elapsed = time.perf_counter() - t2  # <- JW101

import flax.linen as nn
import haiku as hk
from transformers import FlaxResNetForImageClassification

model = FlaxResNetForImageClassification.from_pretrained("microsoft/resnet-50")
t4 = time.perf_counter()
output = model(x)  # a Hugging Face Flax model computes in JAX
elapsed = time.perf_counter() - t4  # <- JW101


class Net(nn.Module):
    def __call__(self, v):
        return v @ v


net = Net()
forward = hk.transform(lambda v: v @ v)
t5 = time.perf_counter()
out = net.apply({}, x)
out2 = forward.apply({}, None, x)
elapsed = time.perf_counter() - t5  # <- JW101

from jax import lax
from functools import partial


class Grid:
    @partial(jax.jit, static_argnums=(0,))
    def make_mask(self, v):  # a jitted method (BoltzmannSim)
        return v > 0

    def build(self):
        t6 = time.perf_counter()
        mask = self.make_mask(x)
        print("mask", time.perf_counter() - t6)  # <- JW101


t7 = time.perf_counter()
carry, ys = lax.scan(lambda c, v: (c + v, c), 0.0, x)  # eager: dispatched, not waited on
elapsed = time.perf_counter() - t7  # <- JW101

t8 = time.perf_counter()
y = step(x)
jax.effects_barrier()  # waits on effect tokens only: a pure step leaves none (chebfunjax)
elapsed = time.perf_counter() - t8  # <- JW101

def train_epoch(data, key, x):  # code not seen, handed a key before the steps (tsax)
    t9 = time.perf_counter()
    key, sub = jax.random.split(key)
    data.shuffle(sub)  # it may wait for the split: never for the steps dispatched after it
    for _ in range(3):
        x = step(x)
    return time.perf_counter() - t9  # <- JW101


import optax
from flax.training import train_state

tx = optax.adam(1e-3)
grad_step = jax.jit(jax.grad(lambda p: (p * p).sum()))


def fit(params, opt_state):  # an optimizer optax makes computes outside jit (tsax)
    t13 = time.perf_counter()
    for _ in range(3):
        updates, opt_state = tx.update(grad_step(params), opt_state)
        params = optax.apply_updates(params, updates)
    return time.perf_counter() - t13  # <- JW101


state = train_state.TrainState.create(apply_fn=step, params=x, tx=tx)
t14 = time.perf_counter()
state = state.apply_gradients(grads=grad_step(state.params))  # a TrainState's update computes
elapsed = time.perf_counter() - t14  # <- JW101


class Profiler:  # its instance's method handed the work by another method (JAX-ENT)
    def phase(self, fn):
        t15 = time.perf_counter()
        fn()
        return time.perf_counter() - t15  # <- JW101

    def step(self, forward):
        return self.phase(forward)


Profiler().step(lambda: step(x))
profiler = Profiler()
profiler.step(lambda: step(x))


def timed_as(label):  # a decorator factory: what it returns is handed the function (jaxml)
    def decorate(fn):
        def run(*args):
            t17 = time.perf_counter()
            out = fn(*args)
            print(label, time.perf_counter() - t17)  # <- JW101
            return out

        return run

    return decorate


@timed_as("matmul")
def matmul(v):
    return jnp.dot(v, v)


class Solver:  # an instance called runs its __call__ (exojax's opart(params, f))
    def __call__(self, v):
        return jnp.linalg.solve(v, v)


solver = Solver()
t18 = time.perf_counter()
fluxes = [solver(x) for _ in range(3)]
elapsed = time.perf_counter() - t18  # <- JW101


def flux(p, bands):  # may wait: np.array of what it is handed
    return jnp.sum(p) * np.array(bands).size


def flux_batch(params, bands):  # flux runs traced, under vmap: it waits for nothing there
    def single(p):
        return flux(p, bands)

    return jax.vmap(single)(jnp.asarray(params))  # jnp.asarray copies to the device


t19 = time.perf_counter()
fluxes = flux_batch(x, ["b", "v"])
elapsed = time.perf_counter() - t19  # <- JW101

t20 = time.perf_counter()
for _ in range(100):
    y = step(y)
print("100 steps (compiled step): {}".format(time.perf_counter() - t20))  # <- JW101

likelihood = lambda p: jnp.sum(step(p))  # a name bound to a lambda that dispatches
for i in range(100):
    t21 = time.perf_counter()
    _ = likelihood(x)
    print(time.perf_counter() - t21)  # <- JW101

last_report = time.time()
for i in range(100):
    _ = likelihood(x)
    if i % 10 == 0:
        now = time.time()  # <- JW101
        print("it/s", 10 / (now - last_report))
        last_report = now


t24 = time.perf_counter()
np.asarray(step(x))
print(f"First run (with compilation): {time.perf_counter() - t24:.2f} s")
t25 = time.perf_counter()  # the readout above is the last timing's, not this one's label
y = step(x)
print("second run", time.perf_counter() - t25)  # <- JW101


from timeit import default_timer as clock  # a clock under a name of the module's own (rodeo)

start = clock()
for _ in range(10):
    y = step(x)
end = clock()  # <- JW101
print("per call", (end - start) / 10)


def scan_steps(y0, nsteps: int):  # int(nsteps) reads a Python int; its body runs traced
    def body(c, _):
        return jax.block_until_ready(c + 1), c  # traced: waits for nothing at run time

    return jax.lax.scan(body, y0, length=int(nsteps))


t26 = time.perf_counter()
carry, ys = scan_steps(x, 10)
elapsed = time.perf_counter() - t26  # <- JW101


def make_forward(params):  # a factory whose function calls a jitted one (jax-gpt's bench)
    @jax.jit
    def _fwd(p, tokens):
        return p * tokens

    def _call(tokens):
        return _fwd(params, tokens)

    return _call


def bench_forward(fwd, tokens):  # handed what the factory made
    fwd(tokens)
    jax.effects_barrier()
    t27 = time.perf_counter()
    fwd(tokens)
    jax.effects_barrier()  # waits on effect tokens: the pure work above leaves none
    return time.perf_counter() - t27  # <- JW101


bench_forward(make_forward(x), x)


def dequantize_leaf(leaf):  # jax.tree.map runs it on each leaf, eagerly: it is not traced
    return leaf / jnp.max(jnp.abs(leaf))


t28 = time.perf_counter()
halved = jax.tree.map(dequantize_leaf, {"w": x})
elapsed = time.perf_counter() - t28  # <- JW101


t29 = time.perf_counter()
y = step(x)
if y.shape[0] == 1:  # the shape is known at dispatch: this reads no value, and waits for none
    y = y[0]
elapsed = time.perf_counter() - t29  # <- JW101


double = jax.jit(lambda a: a * 2)
for label, fn in [("step", step), ("double", double)]:  # functions picked from a table
    fn(x).block_until_ready()
    t30 = time.perf_counter()
    y = fn(x)
    print(label, time.perf_counter() - t30)  # <- JW101


def infer(observation):  # one clock, read after each phase (VLA_JAX_TPU's policy server)
    start = time.time()
    batch = np.asarray(observation)
    print("processed", time.time() - start)
    prediction = step(batch)
    print("applied", time.time() - start)  # <- JW101
    return np.asarray(prediction)


def simulate(width):  # prints what it starts from, then dispatches the rest (hijax's eca1)
    rule = jnp.arange(width)
    print("rule:", rule)
    states = [rule * 2 for _ in range(3)]
    return jnp.stack(states)


start_time = time.perf_counter()
states = simulate(8)
end_time = time.perf_counter()  # <- JW101
print("time taken", end_time - start_time)

import jaxopt

solver = jaxopt.GradientDescent(fun=lambda w: jnp.sum(w * w))  # jits its run, which returns arrays
solver.run(x)
t40 = time.perf_counter()
result = solver.run(x)
print("solve", time.perf_counter() - t40)  # <- JW101


def evolve(a, time_it=False):
    t51 = time.time() if time_it else None  # started only when asked (MalthusJAX)
    out = step(a)
    elapsed = time.time() - t51 if time_it else 0.0  # <- JW101
    return out, elapsed


def run_steps(a, num_steps=100):
    t52 = time.perf_counter()
    out = step(a)
    print("steps:", int(num_steps))  # a host number (its default says so): no wait
    took = time.perf_counter() - t52  # <- JW101
    return out, took


class PhaseTimer:  # its clock handed in, kept under a name of its own (jax_rl)
    def __init__(self, now_fn=None):
        self._now = now_fn or time.time
        self.elapsed = {}

    @contextlib.contextmanager
    def phase(self, name):
        start = self._now()
        try:
            yield
        finally:
            self.elapsed[name] = self._now() - start


timer = PhaseTimer(now_fn=time.time)
with timer.phase("act"):  # <- JW101
    out = step(x)


def run_for(budget, state):  # rounds counted against a time budget (SGMCMC_bandit_tuning)
    start_time = time.time()
    rounds = 0
    while time.time() - start_time < budget:  # <- JW101
        state = step(state)
        rounds += 1
    return state, rounds


def get_batch(data, key):  # its indices read back to the host: the batch is waited for
    starts = jax.random.randint(key, (4,), 0, 6)
    return jnp.stack([data[int(s) : int(s) + 4] for s in starts])


data = jnp.arange(10.0)
step(x).block_until_ready()
for i in range(3):
    t72 = time.time()
    batch = get_batch(data, jax.random.key(i))
    loss = step(batch)
    dt = time.time() - t72  # <- JW101 (flaxchat): only the batch that loss is made from waited
    print(f"step {i}: {dt * 1000:.1f} ms")


# %% done right

import time
import jax
import jax.numpy as jnp
import numpy as np

step = jax.jit(lambda a: a @ a)
x = jnp.ones((10, 10))

step(x).block_until_ready()
t0 = time.perf_counter()
y = step(x)
total = float(y.sum())
elapsed = time.perf_counter() - t0

a = jnp.ones((10, 10))
b = jnp.ones((10, 10))
t1 = time.perf_counter()
for _ in range(10):
    c = a + b
c.block_until_ready()
elapsed = time.perf_counter() - t1

from flax import jax_utils

t2 = time.perf_counter()
y = jax_utils.unreplicate(step(x))
y.block_until_ready()
elapsed = time.perf_counter() - t2

from timing_util import benchmark  # a helper of the project's, not pytest-benchmark's fixture

seconds = benchmark(step, ntrials=10)(x)


class Sim:
    def __init__(self):
        self.data = jnp.zeros(3)

    def step(self, n):
        self.data = step(self.data)


sim = Sim()
t3 = time.perf_counter()
sim.step(1)  # what it dispatched is kept in sim.data, and waited on there
jax.block_until_ready(sim.data)
elapsed = time.perf_counter() - t3

for _ in range(2):  # llama-2-jax: a reading in a function the loop defines is not one here
    total = jnp.zeros(())

    def report(start_time, loss):
        print(loss.item(), time.time() - start_time)

    for _ in range(3):
        start_time = time.time()
        y = step(x)
        jax.debug.callback(report, start_time, y)

import torch
from transformers import FlaxResNetForImageClassification

model = FlaxResNetForImageClassification.from_pretrained("microsoft/resnet-50")
t4 = time.perf_counter()
output = model(x)
output.logits.block_until_ready()
elapsed = time.perf_counter() - t4


class TorchNet(torch.nn.Module):  # torch's Module is no JAX model
    def forward(self, v):
        return v @ v


tnet = TorchNet()
t5 = time.perf_counter()
out = tnet(torch.ones(3))
elapsed = time.perf_counter() - t5

from jax import lax
from functools import partial


class Grid:
    @partial(jax.jit, static_argnums=(0,))
    def make_mask(self, v):
        return v > 0

    def build(self):
        t6 = time.perf_counter()
        mask = self.make_mask(x).block_until_ready()
        print("mask", time.perf_counter() - t6)


t7 = time.perf_counter()
carry, ys = lax.scan(lambda c, v: (c + v, c), 0.0, x)
ys.block_until_ready()
elapsed = time.perf_counter() - t7


def train_epoch(data, key, x):
    t9 = time.perf_counter()
    key, sub = jax.random.split(key)
    data.shuffle(sub)
    for _ in range(3):
        x = step(x)
    x.block_until_ready()
    return time.perf_counter() - t9


def evaluate(log, x):  # code not seen, handed the step's result: it may have waited
    t10 = time.perf_counter()
    y = step(x)
    log(y)
    return time.perf_counter() - t10


def shuffle_only(data, key):  # only work before the code not seen: it may have waited for it
    t11 = time.perf_counter()
    key, sub = jax.random.split(key)
    data.shuffle(sub)
    return time.perf_counter() - t11


from chebfunlib import chebfun


def construct():  # the code not seen runs the work it is handed: it may wait for it
    t12 = time.perf_counter()
    chebfun(lambda v: jnp.cos(v))
    return time.perf_counter() - t12


import optax
from flax.training import train_state

tx = optax.adam(1e-3)
grad_step = jax.jit(jax.grad(lambda p: (p * p).sum()))


def fit(params, opt_state):
    t13 = time.perf_counter()
    for _ in range(3):
        updates, opt_state = tx.update(grad_step(params), opt_state)
        params = optax.apply_updates(params, updates)
    jax.block_until_ready(params)
    return time.perf_counter() - t13


state = train_state.TrainState.create(apply_fn=step, params=x, tx=tx)
t14 = time.perf_counter()
state = state.apply_gradients(grads=grad_step(state.params))
jax.block_until_ready(state)
elapsed = time.perf_counter() - t14


class Profiler:
    def phase(self, fn):
        t15 = time.perf_counter()
        jax.block_until_ready(fn())
        return time.perf_counter() - t15

    def step(self, forward):
        return self.phase(forward)


profiler = Profiler()
profiler.step(lambda: step(x))

t16 = time.perf_counter()
loss = step(x)
_ = loss._value  # the array's host copy: reading it waits (alpa's benchmarks)
elapsed = time.perf_counter() - t16


def timed_as(label):
    def decorate(fn):
        def run(*args):
            t17 = time.perf_counter()
            out = jax.block_until_ready(fn(*args))
            print(label, time.perf_counter() - t17)
            return out

        return run

    return decorate


@timed_as("matmul")
def matmul(v):
    return jnp.dot(v, v)


class Solver:
    def __call__(self, v):
        return jnp.linalg.solve(v, v)


solver = Solver()
t18 = time.perf_counter()
fluxes = jax.block_until_ready([solver(x) for _ in range(3)])
elapsed = time.perf_counter() - t18


def series_start(v):  # a wait three calls deep: series_end waits, so the two above it do
    return series_middle(v)


def series_middle(v):
    return series_end(v)


def series_end(v):
    coefficients = jnp.cumsum(v)
    return coefficients[: int(jnp.argmax(coefficients))]  # int() waits for the values


t19 = time.perf_counter()
built = series_start(x)
elapsed = time.perf_counter() - t19

t20 = time.perf_counter()
fresh = jax.jit(lambda v: v * 3)
y = fresh(x)
print("compiled in {:.2f} s (dispatch included)".format(time.perf_counter() - t20))

likelihood = lambda p: jnp.sum(step(p))
for i in range(100):
    t21 = time.perf_counter()
    _ = likelihood(x).block_until_ready()
    print(time.perf_counter() - t21)

last_report = time.time()
for i in range(100):
    value = likelihood(x)
    if i % 10 == 0:
        value.block_until_ready()
        now = time.time()
        print("it/s", 10 / (now - last_report))
        last_report = now


def scanned(v):  # its block waits when it is called as it is; jit(scanned) is traced apart
    return jax.block_until_ready(jax.lax.scan(lambda c, _: (c + 1, c), v, length=3))


scanned_jit = jax.jit(scanned)
t22 = time.perf_counter()
carry, ys = scanned(x)
elapsed = time.perf_counter() - t22

import random  # Python's random, not jax.random: random.randint is no JAX work


def gym_episode(steps):
    total = 0
    for _ in range(steps):
        total += random.randint(0, 4)
    return total


t23 = time.perf_counter()
gym_episode(100)
elapsed = time.perf_counter() - t23


def bench_jax(params):
    def loss_fn(p):  # seen only in bench_jax
        return jnp.sum(p * p)

    t0 = time.perf_counter()
    value = jax.jit(loss_fn)(params).block_until_ready()
    return value, time.perf_counter() - t0


def bench_other(output, target, make_loss):
    loss_fn = make_loss()  # another library's loss: not bench_jax's loss_fn
    t0 = time.perf_counter()
    loss = loss_fn(output, target)
    return loss, time.perf_counter() - t0


def simulate_fetched(width):  # its last call waits: nothing dispatched after it
    rule = jnp.arange(width)
    states = jnp.stack([rule * 2 for _ in range(3)])
    print("final:", states)
    return states


start_time = time.perf_counter()
states = simulate_fetched(8)
print("time taken", time.perf_counter() - start_time)


def make_energy(box):  # waits, then only defines a function and copies host data over
    scale = float(jnp.mean(jnp.asarray(box)))
    shifts = jnp.asarray(np.zeros(3))

    def energy(r):
        return jnp.sum(r * scale) + jnp.sum(shifts)

    return energy


start_time = time.perf_counter()
energy = make_energy(np.ones(3))
print("set up", time.perf_counter() - start_time)

import jaxopt

solver = jaxopt.LBFGS(fun=lambda w: jnp.sum(w * w))
solver.run(x).params.block_until_ready()
t40 = time.perf_counter()
result = jax.block_until_ready(solver.run(x))
print("solve", time.perf_counter() - t40)


def timeit(fn, pairs=5):  # the module's own helper, not the standard library's: it blocks
    f = jax.jit(fn)
    jax.block_until_ready(f())
    ts = []
    for _ in range(pairs):
        t41 = time.perf_counter()
        jax.block_until_ready(f())
        ts.append(time.perf_counter() - t41)
    return float(np.median(ts))


seconds = timeit(lambda: jnp.sin(x))


def sample(key, n, x0):  # each round copies its result into a NumPy array (jax_MCMC_blog_post)
    samples = np.zeros((n, 3))
    current = x0
    start = time.time()
    for i in range(n):
        current = step(current)
        samples[i] = current
    print(f"Running time: {time.time() - start:.2f}sec")
    return samples


def run_for(budget, state):  # each round waited on before the budget is read again
    start_time = time.time()
    while time.time() - start_time < budget:
        state = step(state).block_until_ready()
    return state

pair = jax.jit(lambda a: (a, a + 1))
jax.block_until_ready(pair(x))
t71 = time.perf_counter()
outs = [o.block_until_ready() for o in pair(x)]  # each output blocked in turn (pytensor)
took = time.perf_counter() - t71


# the step's result handed straight to a helper this review cannot see, which may wait for it:
# not judged, and said so (GPJax's realise, its file reviewed alone)
from bench_helpers import realise

t75 = time.perf_counter()
realise(step(x))
took = time.perf_counter() - t75
