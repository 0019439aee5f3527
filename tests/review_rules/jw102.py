"""JW102 compile-timed: the first call of a jitted function is timed: it compiles before it runs."""

import time
import jax
import jax.numpy as jnp
import numpy as np

step = jax.jit(lambda a: a @ a)
x = jnp.ones((10, 10))

t0 = time.perf_counter()
step(x).block_until_ready()  # <- JW102
elapsed = time.perf_counter() - t0


def run_epoch(batches):  # jits a step it makes anew on each call: every epoch compiles
    def train_step(b):
        return (b @ b).sum()

    step_fn = jax.jit(train_step)
    start = time.perf_counter()
    for b in batches:
        loss = step_fn(b)  # <- JW102
    loss.block_until_ready()
    return time.perf_counter() - start


for epoch in range(3):
    print(run_epoch([x, x]))

a = jnp.ones((50, 50))
t10 = time.perf_counter()  # an operation outside jit, on its first call: it compiles
jnp.dot(a, a.T).block_until_ready()  # <- JW102
print(time.perf_counter() - t10)

u = jnp.array([1.0, 2.0])
w = jnp.array([3.0, 4.0])
t11 = time.time()
total = u + w  # <- JW102
print(total, time.time() - t11)


def squares(v):
    return (v * v).sum()


t12 = time.time()
dv = jax.grad(squares)(a).block_until_ready()  # <- JW102
print(time.time() - t12)

batched = jax.vmap(squares)
t15 = time.time()  # a transformation bound to a name, called outside jit: operation by operation
totals = batched(a).block_until_ready()  # <- JW102
print(time.time() - t15)

t14 = time.time()  # three operations' first calls: one finding, at the first
key = jax.random.PRNGKey(0)  # <- JW102
m = jax.random.normal(key, (40, 40))
jnp.matmul(m, m).block_until_ready()
print(time.time() - t14)


for n in (64, 128, 256):  # each size a new shape, which compiles inside its own timing
    m = jnp.ones((n, n))
    t16 = time.perf_counter()
    step(m).block_until_ready()  # <- JW102
    print(n, time.perf_counter() - t16)


class Tracker:  # a method that calls a jitted function kept on self (JAXTrace's tracker)
    def __init__(self):
        @jax.jit
        def _run(v):
            return v * 3

        self._run = _run

    def track(self, v):
        return self._run(v)

    def bench(self, v):
        t18 = time.perf_counter()
        self.track(v).block_until_ready()  # <- JW102
        return time.perf_counter() - t18


def evpi(v):  # jits a function it makes on each call: every call compiles (voiage)
    def compute(a):
        return jnp.max(a) - jnp.mean(a)

    return float(jax.jit(compute)(v))


evpi(x)  # the warm-up compiles a function that the next call no longer has
t21 = time.perf_counter()
value = evpi(x)  # <- JW102
print("evpi", time.perf_counter() - t21)


import flax.linen as nn


class Dense(nn.Module):
    @nn.compact
    def __call__(self, v):
        return nn.Dense(4)(v)


dense = Dense()
variables = dense.init(jax.random.PRNGKey(0), x)
t22 = time.perf_counter()
out = dense.apply(variables, x)  # <- JW102
out.block_until_ready()
print("forward", time.perf_counter() - t22)


for n in (8, 16, 32):  # a new shape each round, eager: one finding at the call, not two
    v = jnp.ones((n, n))
    t23 = time.perf_counter()
    jax.jacfwd(jnp.sin)(v).block_until_ready()  # <- JW102
    print(n, time.perf_counter() - t23)


encode = jax.jit(lambda a: a * 2)
decode = jax.jit(lambda a: a / 2)
t24 = time.perf_counter()
z = decode(encode(x))  # <- JW102
z.block_until_ready()
print("round trip", time.perf_counter() - t24)  # two compilations, one finding


def jit_env(reset_fn, step_fn):  # a factory of two jitted functions (passive_walker)
    return jax.jit(reset_fn), jax.jit(step_fn)


reset_jit, step_jit = jit_env(lambda k: k * 0, lambda s: s + 1)
state = reset_jit(x)
t27 = time.perf_counter()
for _ in range(100):
    state = step_jit(state)  # <- JW102
state.block_until_ready()
print("ms per step", (time.perf_counter() - t27) * 10)

import functools


def rollouts(keys, n):  # jits a new partial on every call (rl_jax_lib's rollout comparison)
    rollout = jax.jit(functools.partial(jnp.roll, shift=n))
    return jax.vmap(rollout)(keys)


rollouts(x, 1).block_until_ready()
t28 = time.perf_counter()
rollouts(x, 1).block_until_ready()  # <- JW102
print("rollouts", time.perf_counter() - t28)


def rollouts_vmap_jit(keys):  # a new partial jitted, then vmapped, on every call
    jitted = jax.jit(functools.partial(jnp.roll, shift=1))
    batched = jax.vmap(jitted)
    return batched(keys)


strategies = {"vmap_jit": {"function": rollouts_vmap_jit, "name": "vmap(jit(f))"}}
for key, info in strategies.items():
    strategy_fn = info["function"]
    strategy_fn(x).block_until_ready()
    t30 = time.perf_counter()
    strategy_fn(x).block_until_ready()  # <- JW102
    print(key, time.perf_counter() - t30)


class Generator:
    @functools.partial(jax.jit, static_argnums=(0,))
    def forward(self, ids):
        return ids * 2

    def generate(self, ids, steps):  # a token more on each round: each length compiles
        for step in range(steps):
            t31 = time.perf_counter()
            logits = self.forward(ids)  # <- JW102
            ids = jnp.concatenate([ids, logits[:, -1:]], axis=1)
            ids.block_until_ready()
            print(step, time.perf_counter() - t31)


def time_ms(fn, n_iter=20):  # times what it is handed (jax-vulcan's profile_step)
    t32 = time.perf_counter()
    for _ in range(n_iter):
        fn().block_until_ready()
    return (time.perf_counter() - t32) / n_iter * 1e3


rhs_jit = jax.jit(lambda a: a - 3)
print(time_ms(lambda: rhs_jit(x)))  # <- JW102


class Tracing:  # its constructor traces: the first construction compiles (ESSOS's Tracing)
    def __init__(self, y0):
        self.y0 = y0
        self.trajectories = self.trace()

    @functools.partial(jax.jit, static_argnums=(0,))
    def trace(self):
        return self.y0 * 2


t33 = time.time()
tracing = jax.block_until_ready(Tracing(x))  # <- JW102
print("tracing took", time.time() - t33)


def bench_voxels(model, diameter):  # warmed up on ten voxels, timed on them all (dmipy)
    run_st = jax.jit(jax.vmap(model))
    print("Warming up...")
    run_st(diameter[:10]).block_until_ready()
    t37 = time.perf_counter()
    run_st(diameter).block_until_ready()  # <- JW102
    print("vox/s", len(diameter) / (time.perf_counter() - t37))


def bench(model, batch, num_warmup=3):  # warms up one function, then times another
    sample_batch = jax.jit(model.sample_batch)
    sample_one = jax.jit(model.sample)
    for _ in range(num_warmup):
        jax.block_until_ready(sample_batch(batch))
    times = []
    for _ in range(3):
        t36 = time.perf_counter()
        jax.block_until_ready(sample_one(batch))  # <- JW102
        times.append(time.perf_counter() - t36)
    print("mean", sum(times) / len(times))


class LazyTrainer:  # its step made on first use by a method of its own (jax_supervised_training)
    def __init__(self):
        self._train_step = None

    def _create_train_step(self):
        @jax.jit
        def train_step(params, a):
            return params * a

        return train_step

    def train_epoch(self, data):
        if self._train_step is None:
            self._train_step = self._create_train_step()
        return sum(float(self._train_step(self.params, a)) for a in data)

    def train(self, data, epochs):
        for epoch in range(epochs):
            t60 = time.time()
            loss = self.train_epoch(data)  # <- JW102
            print(f"epoch {epoch} loss={loss} time={time.time() - t60:.1f}s")


def chains(state, n):  # a body made on each call, run by an eager scan (jax-fsm-mcmc)
    @jax.jit
    def one_step(s, k):
        return s * k, s

    return jax.lax.scan(one_step, state, jnp.arange(n))


chains(x, 1)  # a warm-up: it compiles one_step of this call only
t61 = time.time()
jax.block_until_ready(chains(x, 100))  # <- JW102
print("sampling", time.time() - t61)


class Unrolled:  # a grad of a lambda made in the region; another class's compute is another
    def compute(self, theta):  # function (Efficient-Implementation-of-Gradient-Stopping-Methods)
        t65 = time.time()
        loss_fn = lambda t: jnp.sum(self.forward(t))
        g = jax.grad(loss_fn)(theta)  # <- JW102
        jax.block_until_ready(g)
        return g, time.time() - t65

    def forward(self, t):
        return t**2


class Stepwise:
    def compute(self, theta):
        return theta


unrolled, stepwise = Unrolled(), Stepwise()
unrolled.compute(x)
stepwise.compute(x)


def prepare(f):  # a name made by a transformation here and jitted there: one finding (jax_xc)
    impl_fn = jax.vmap(f)
    return impl_fn


def bench_impl(f, a):
    impl_fn = jax.jit(prepare(f))
    t69 = time.time()
    jax.block_until_ready(impl_fn(a))  # <- JW102
    print("took", time.time() - t69)


# the time of a run shown as a rate: the time of its steps, so the first one's compiling is not
# meant to be in it (impjax's sampler)
stepper = jax.jit(lambda a: a * 0.25)
state = x
t80 = time.time()
for i in range(100):
    state = stepper(state)  # <- JW102
    if i % 10 == 0:
        print(f"Step {i}/100")
np.asarray(state)
dt = time.time() - t80
print(f"{100 / dt:.0f} steps/s, {dt:.2f}s in all")

# a row of a per-epoch log: its timer starts on each round, so epoch 0's row holds the compiling;
# the message after it is no readout of it (a print that shows the time ends the region)
epoch_step = jax.jit(lambda a: a * 0.125)
for epoch in range(3):
    t81 = time.time()
    for i in range(10):
        state = epoch_step(state)  # <- JW102
        if i % 5 == 0:
            print(f"Step {i}, loss: {float(state.sum()):.4f}")
    print(f"Epoch {epoch} took {time.time() - t81:.2f}s")

print(f"Compiling the decoder for {len(state)} rows (first call is slow)...")
decoder = jax.jit(lambda a: a * 0.03125)
decoder(state).block_until_ready()

# a clock read as a random seed inside the region is no reading of its timer (splice_wave)
epoch_fn = jax.jit(lambda a: a * 0.015625)
for epoch in range(3):
    start_time = time.time()
    np.random.seed(time.time_ns() % (2**32))
    state = epoch_fn(state)  # <- JW102
    float(state.sum())
    epoch_time = time.time() - start_time
    print(f"Epoch {epoch} took {epoch_time:.2f}s")

# a time shown by %-formatting is read there (a course's matrix product)
squared = jax.jit(lambda a: a @ a)
start_time = time.time()
squared(x).block_until_ready()  # <- JW102
print("--- %s seconds ---" % (time.time() - start_time))

rate_fn = jax.jit(lambda a: a * 0.0078125)
row_fn = jax.jit(lambda a: a * 0.00390625)


def epoch_rate(state, loader):  # one epoch's time, shown as a rate further on (a benchmark)
    began = time.time()
    for i, batch in enumerate(loader):
        state = rate_fn(state + batch)  # <- JW102
        if i % 50 == 0:
            print(f"Batch {i}: {float(state.sum()):.4f}")
    jax.block_until_ready(state)
    took = time.time() - began
    print("epoch done")
    print("saving")
    print("metrics")
    print("profile")
    print("energy")
    print("memory")
    return {"seconds": took, "samples_per_sec": len(loader) / took}


def one_epoch_time(state, loader):  # ... or, by its name, the time of one epoch
    epoch_start = time.time()
    for i, batch in enumerate(loader):
        state = row_fn(state + batch)  # <- JW102
        if i % 50 == 0:
            print(f"Batch {i}: {float(state.sum()):.4f}")
    jax.block_until_ready(state)
    return time.time() - epoch_start


# the time shown before is kept from two clock readings: no announcement of what follows
shifted = jax.jit(lambda a: a - 0.5)
compile_start = time.time()
squared(x).block_until_ready()
compile_end = time.time()
compilation_time = compile_end - compile_start
print(f"Compilation + first execution: {compilation_time:.4f}s")
t82 = time.time()
shifted(x).block_until_ready()  # <- JW102
print(time.time() - t82)

# ... nor is one that shows a time read in it
scaled = jax.jit(lambda a: a * 0.03125)
print(f"Warm-up took {time.time() - t82:.1f}s")
t83 = time.time()
scaled(x).block_until_ready()  # <- JW102
print(f"Scaled: {time.time() - t83:.3f}s")

mean_fn = jax.jit(lambda a: a * 0.001953125)


def run_one(round_no, state):  # called on each round below: its time is a row of a log (flax)
    began = time.time()
    for i in range(10):
        state = mean_fn(state)  # <- JW102
        if i % 5 == 0:
            print(f"{round_no}.{i}: {float(state.sum()):.4f}")
    took = time.time() - began
    print(f"round {round_no}: {took:.2f}s")
    return state


for r in range(3):
    state = run_one(r, state)


# a time shown every tenth round, the first among them: its compiling is shown as a round's
tenth = jax.jit(lambda a: a * 0.0078125)
for i in range(50):
    t84 = time.time()
    tenth(x).block_until_ready()  # <- JW102
    if i % 10 == 0:
        print(f"step {i}: {time.time() - t84:.3f}s")


# a time read every tenth step, counted from 1, of a clock started once and set anew only
# when shown: its first reading holds the first ten steps, the compiling one among them
# (HighPerfLLMs2024)
logged = jax.jit(lambda a: a * 0.00390625)
last_step_time = time.time()
stepnum = 0
for _ in range(50):
    state = logged(state).block_until_ready()  # <- JW102
    stepnum += 1
    if stepnum % 10 == 0:
        new_time = time.time()
        time_elapsed_seconds = new_time - last_step_time
        last_step_time = new_time
        print(f"{stepnum}: {time_elapsed_seconds=}")


# the same call timed again and again, each printed under the same words: the first row holds
# the compilation under the name of the rest (pyNACX)
jac = jax.jit(jax.jacfwd(lambda a: a * a))
start_time = time.time()
jac(x).block_until_ready()  # <- JW102
print("Calculating JAX gradient took {} seconds".format(time.time() - start_time))
start_time = time.time()
jac(x).block_until_ready()
print("Calculating JAX gradient took {} seconds".format(time.time() - start_time))


def time_compiled_step():  # named for the compiled function it times, not for compiling
    compiled_step = jax.jit(lambda a: a * 0.001)
    t0 = time.perf_counter()
    compiled_step(x).block_until_ready()  # <- JW102
    return time.perf_counter() - t0


@functools.partial(jax.jit, static_argnums=(1,))
def relax(v, n_steps):  # the number of steps is static: each new number compiles (jax-morpho)
    for _ in range(n_steps):
        v = v * 0.5
    return v


relax(x, 1).block_until_ready()  # warmed up with one step, timed with twenty
t76 = time.time()
relax(x, 20).block_until_ready()  # <- JW102
print(f"ms/step: {(time.time() - t76) / 20 * 1e3:.2f}")


# %% done right

import logging
import time
import timeit
import jax
import jax.numpy as jnp
import numpy as np

step = jax.jit(lambda a: a @ a)
x = jnp.ones((10, 10))

step.lower(x).compile()
t0 = time.perf_counter()
step(x).block_until_ready()
elapsed = time.perf_counter() - t0


def train_step(b):
    return (b @ b).sum()


def run_epoch(batches):  # the same function jitted each call: compiled once, the first epoch
    step_fn = jax.jit(train_step)
    start = time.perf_counter()
    for b in batches:
        loss = step_fn(b)
    loss.block_until_ready()
    return time.perf_counter() - start


run_epoch([x])  # warm-up
for epoch in range(3):
    print(run_epoch([x, x]))

loss_of = jax.jit(lambda v: (v @ v).sum())
start = time.time()  # a running clock (functional-transformer): compiling belongs in it
for epoch in range(3):
    for b in [x, x]:
        loss = loss_of(b)
        print(epoch, loss.item(), time.time() - start)

import numba
import numbax

fast = numba.jit(lambda v: v * 2)  # Numba's, not JAX's: nothing of JAX compiles here
host_step = numbax.jit(lambda v: v + 1)
t5 = time.perf_counter()
fast(np.ones(3))
host_step(np.ones(3))
print(time.perf_counter() - t5)

first_loss = jax.jit(lambda v: (v * v).sum())
t_first = t_rest = 0.0
for it in range(3):  # the first round timed on its own, on purpose (deeponet-jax-bench)
    t6 = time.time()
    out = first_loss(x).block_until_ready()
    if it == 0:
        t_first += time.time() - t6
    else:
        t_rest += time.time() - t6

cold = jax.jit(lambda v: v - 1)
t7 = time.perf_counter()  # the first call, then the next: the compilation shown (numbax)
cold(x).block_until_ready()
t8 = time.perf_counter()
cold(x).block_until_ready()
t9 = time.perf_counter()
print("compile + first run", t8 - t7, "steady", t9 - t8)

a = jnp.ones((50, 50))
jnp.dot(a, a.T).block_until_ready()  # the dot compiled for this shape, untimed
t10 = time.perf_counter()
jnp.dot(a, a.T).block_until_ready()
print(time.perf_counter() - t10)

u = jnp.array([1.0, 2.0])
w = jnp.array([3.0, 4.0])
(u + w).block_until_ready()
t11 = time.time()
total = u + w
print(total, time.time() - t11)

t12 = time.time()  # a transfer compiles nothing
moved = jnp.asarray(np.ones(3)).block_until_ready()
print(time.time() - t12)

double = jax.jit(lambda v: v * 2)
double(a).block_until_ready()
t13 = time.time()  # the step is what is measured, warm: the mean beside it is bookkeeping
doubled = double(a)
print(jnp.mean(doubled), time.time() - t13)


def prefill_loop(engine_prefill, params, iters):  # the handed step is the work measured
    start = time.time()
    rng = jax.random.PRNGKey(0)
    for _ in range(iters):
        rng, sub = jax.random.split(rng)
        out = engine_prefill(params, sub)
    jax.block_until_ready(out)
    return time.time() - start


for n in (64, 128, 256):  # warmed up with each size before its timing
    m = jnp.ones((n, n))
    step(m).block_until_ready()
    t16 = time.perf_counter()
    step(m).block_until_ready()
    print(n, time.perf_counter() - t16)

for i in range(3):  # the same shape on each round: the loop's variable only scales the data
    m = jnp.ones((10, 10)) * i
    t17 = time.perf_counter()
    step(m).block_until_ready()
    print(i, time.perf_counter() - t17)


def gap(a):
    return jnp.max(a) - jnp.mean(a)


gap_jit = jax.jit(gap)


def evpi_once(v):  # one jit of a module function: compiled by the warm-up, then reused
    return float(gap_jit(v))


evpi_once(x)
t21 = time.perf_counter()
value = evpi_once(x)
print("evpi", time.perf_counter() - t21)


import flax.linen as nn


class Dense(nn.Module):
    @nn.compact
    def __call__(self, v):
        return nn.Dense(4)(v)


dense = Dense()
variables = dense.init(jax.random.PRNGKey(0), x)
dense.apply(variables, x).block_until_ready()  # run once before the timer: its ops compile
t22 = time.perf_counter()
out = dense.apply(variables, x)
out.block_until_ready()
print("forward", time.perf_counter() - t22)

add_ten = jax.jit(lambda a: a + 10)
jnp_times = []
for _ in range(100):
    t0 = time.time()
    np.asarray(add_ten(x))
    jnp_times.append(time.time() - t0)
mean = np.mean(jnp_times[10:])  # the first ten runs, compiling among them, dropped

first_jit = jax.jit(lambda a: a - 1)
print("First run: compiling and solving...")  # the message that announces the timing
t24 = time.perf_counter()
first_jit(x).block_until_ready()
elapsed = time.perf_counter() - t24


def rejit(v):  # a new jit each call, and no warm-up tried: what the code as written costs
    return float(jax.jit(lambda a: a.sum())(v))


for _ in range(3):
    t25 = time.perf_counter()
    rejit(x)
    print(time.perf_counter() - t25)

solve_jit = jax.jit(lambda a: a * 3)
round_times = []
for _ in range(4):
    jax.clear_caches()  # each round compiles again, on purpose: the time of compiling is wanted
    t26 = time.perf_counter()
    solve_jit(x).block_until_ready()
    round_times.append(time.perf_counter() - t26)

# the wall clock of a whole simulation, said so where it is printed: its first chunk's
# compiling belongs in it
run_chunk = jax.jit(lambda a: a / 2)
start_time = time.time()
state = x
for _ in range(10):
    state = run_chunk(state)
    np.asarray(state)
runtime = time.time() - start_time
print(f"Simulation completed in {runtime:.2f} seconds")

cache = {}


def cached_rollouts(keys, n):  # jitted once for each n, then taken out of the cache
    rollout = cache.get(n)
    if rollout is None:
        rollout = jax.jit(functools.partial(jnp.roll, shift=n))
        cache[n] = rollout
    return jax.vmap(rollout)(keys)


cached_rollouts(x, 1).block_until_ready()
t29 = time.perf_counter()
cached_rollouts(x, 1).block_until_ready()
print("cached rollouts", time.perf_counter() - t29)


def time_handed(fn, repeats):
    t30 = time.perf_counter()
    for _ in range(repeats):
        fn().block_until_ready()
    return (time.perf_counter() - t30) / repeats


batched = jax.jit(lambda: x * 4)
batch_first_seconds = time_handed(batched, 1)  # the first call, timed on purpose
warmed_seconds = time_handed(batched, 10)

metacal = jax.jit(lambda a: a.T)
for i in range(2):  # the first round told apart, by the label printed with its time
    if i == 0:
        msg = "the first, compiling"
    else:
        msg = "compiled"
    t31 = time.perf_counter()
    metacal(x).block_until_ready()
    print(msg, time.perf_counter() - t31)

grads_jit = jax.jit(lambda a: a * a)
runtimes = []
for i in range(5):
    tic = time.perf_counter()
    grads_jit(x).block_until_ready()
    toc = time.perf_counter()
    if i > 0:  # the first round, compiling, left out of the mean
        runtimes.append(toc - tic)
print("step time", np.mean(runtimes))

update_nbrs = jax.jit(lambda a: a + 0.1)
t32 = time.time()
update_nbrs(x).block_until_ready()
t33 = time.time()
print(f"First update (includes JIT): {(t33 - t32) * 1000:.1f} ms")

trace_jit = jax.jit(lambda a: a * 2)


class Tracing:  # its constructor calls a jitted function: compiled by the first construction
    def __init__(self, y0):
        self.trajectories = trace_jit(y0)


jax.block_until_ready(Tracing(x))  # warm-up
t34 = time.time()
tracing = jax.block_until_ready(Tracing(x))
print("tracing took", time.time() - t34)

simulate_jit = jax.jit(lambda a: a * 3)
start = time.time()
trajectory = simulate_jit(x).block_until_ready()
end = time.time()
elapsed_time = end - start
print(f"Jax execution with compilation: time elapsed {elapsed_time} seconds")  # its readout

fn_grad_jit = jax.jit(lambda a: a * 4)
start = time.time()
fn_grad_jit(x).block_until_ready()
end = time.time()
print(f"  First gradient evaluation: {end - start}")  # a first run, shown as such


@functools.partial(jax.jit, static_argnums=(1,))
def residual(a, n):  # jitted itself: its inner jit is made while it traces, once for each n
    @jax.jit
    def inner(b):
        return b * n

    return inner(a)


residual(x, 3).block_until_ready()
t35 = time.time()
residual(x, 3).block_until_ready()
print("JAX again took", time.time() - t35)


def bench_voxels(model, diameter):  # warmed up on the shape it is timed with
    run_st = jax.jit(jax.vmap(model))
    print("Warming up...")
    run_st(diameter).block_until_ready()
    t37 = time.perf_counter()
    run_st(diameter).block_until_ready()
    print("vox/s", len(diameter) / (time.perf_counter() - t37))


train_step = jax.jit(lambda a: a * 5)
for stage, num_steps in enumerate([10, 20]):  # a burn-in stage, then the one shown (gpt-jax)
    t38 = time.time()
    for _ in range(num_steps):
        loss = train_step(x)
    loss.block_until_ready()
    t39 = time.time()
    if stage == 1:
        print(f"time per iteration: {(t39 - t38) / num_steps * 1000:.4f}ms")

jit_optimize = jax.jit(lambda a: a * 6)
print("Jitting the controller...")
st = time.time()
jit_optimize(x).block_until_ready()
print(f"Time to jit: {time.time() - st:.3f} seconds")


def build(env, n):  # makes a function to be jitted by its caller (xland-minigrid)
    def benchmark_fn(key):
        def _body_fn(t, a):
            return env.step(t, a), None

        return jax.lax.scan(_body_fn, env.reset(key), jnp.arange(n))[0]

    return benchmark_fn


def timeit_benchmark(benchmark_fn):  # the jitted one it is handed, not build's own
    t62 = time.time()
    benchmark_fn().block_until_ready()
    print(f"Compilation time: {time.time() - t62}")
    return min(timeit.repeat(lambda: benchmark_fn().block_until_ready(), number=3, repeat=3))


sampler = jax.jit(lambda a: a - 1)
t63 = time.time()
first = sampler(x).block_until_ready()
t64 = time.time()
print(f"Pure Jax sampler, 1st run: {t64 - t63:.3f}sec")  # the compile, said so

halved = jax.jit(lambda a: a / 2)
t66 = time.time()
halved(x).block_until_ready()
t67 = time.time()
logging.debug(
    f"took {t67 - t66} compilation seconds"  # the message goes on over lines (jax_xc)
)

# the wall clock of a whole sampler run, by its shape: a loop that prints its progress each
# round, timed from before it and shown once as it is (jax_MCMC_blog_post): its first round's
# compiling is part of the run's cost
kernel = jax.jit(lambda a: a * 0.5)
start = time.time()
state = x
for i in range(100):
    state = kernel(state)
    if i % 10 == 0:
        print(f"Iteration {i}/100")
np.asarray(state)
end = time.time()
print(f"Running time: {(end - start):.2f}sec")

# announced as compiling, in an f-string that shows a count, not a time (seqcond's prefill)
prefill = jax.jit(lambda a: a * 0.0625)
tokens = [1, 2, 3]
print(f"Compiling and prefilling {len(tokens)} tokens (first call is slow)...")
t70 = time.time()
for token in tokens:
    state = prefill(state)
state.block_until_ready()
prefill_time = time.time() - t70
print(f"Prefill done in {prefill_time:.1f}s")

# a time shown only every hundredth round, counted from 1: the first round, which compiles, is
# never shown (adam-coordinate-adaptivity)
tree_sum = jax.jit(lambda a, b: a + b)
t71 = time.time()
iter_num = 0
for micro_step in range(1, 300):
    state = tree_sum(state, x).block_until_ready()
    t72 = time.time()
    dt = t72 - t71
    t71 = t72
    iter_num += 1
    if iter_num % 100 == 0:
        print(f"iter {iter_num}: time {dt * 1000:.2f}ms")

# read only when a version counted from 1 is a multiple of a logging period (cleanba)
update = jax.jit(lambda a: a * 0.25)
log_every = 10
version = 0
while version < 50:
    version += 1
    t73 = time.time()
    state = update(state).block_until_ready()
    if version % log_every == 0:
        print(f"training time: {time.time() - t73}s")


# a helper that blocks each leaf with jax.tree.map and a lambda: a Python loop over the leaves,
# no lax.map over a new body, so it compiles nothing (megalodon-jax)
def ready(value):
    return jax.tree.map(lambda leaf: leaf.block_until_ready(), value)


def bench(fn, n_warmup, n_iters):
    for _ in range(n_warmup):
        ready(fn())
    t74 = time.perf_counter()
    for _ in range(n_iters):
        ready(fn())
    return (time.perf_counter() - t74) / n_iters


from vbjax_dynamics.loops import make_sde_auto


def test_vmap_speedup():  # the first call timed apart from the next (vbjax_dynamics)
    _, sde_loop = make_sde_auto(0.01, None, None)
    keys = jax.random.split(jax.random.PRNGKey(42), 100)
    loop_vmap = jax.vmap(lambda k: sde_loop(2.0, k))
    start = time.time()
    trajectories1 = loop_vmap(keys)
    jax.block_until_ready(trajectories1)
    time_vmap1 = time.time() - start
    start = time.time()
    trajectories2 = loop_vmap(keys)
    jax.block_until_ready(trajectories2)
    time_vmap2 = time.time() - start
    assert time_vmap1 > time_vmap2


class CompileSuite:  # a benchmark suite's track named for compiling (GPJax's compile.py)
    def setup(self):
        jax.clear_caches()
        self.jitted_gram = jax.jit(lambda a: a @ a.T)

    def track_compile_gram(self):
        t0 = time.perf_counter()
        self.jitted_gram(x).block_until_ready()
        return time.perf_counter() - t0


relax(x, 20).block_until_ready()  # warmed up with the value it is timed with
t77 = time.time()
relax(x, 20).block_until_ready()
print(f"ms/step: {(time.time() - t77) / 20 * 1e3:.2f}")
