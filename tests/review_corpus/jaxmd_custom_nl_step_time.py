# source: jax-md/jax-md
# path: examples/custom_nl.py
# commit: a41c7d19f6468f4e5263c32c12c9ed6cba26ebff
# licence: Apache-2.0
# url: https://github.com/jax-md/jax-md/blob/a41c7d19f6468f4e5263c32c12c9ed6cba26ebff/examples/custom_nl.py#L424-L486
# note: the wait is sound: did_buffer_overflow, jnp.allclose and float(pe)/float(ke) are read on every iteration, before the timer. The first print window (steps 0-20) holds the first fori_loop over the jitted step_fn, so it includes the compile
# JIT-compiled step function with neighbor list update
@jit
def step_fn(i, state_and_nbrs):
  state, nbrs = state_and_nbrs
  state = apply_fn(state, neighbor=nbrs)
  nbrs = nbrs.update(state.position)
  return state, nbrs
# ...
N_steps = 200 if SMOKE_TEST else 1000
print_every = 20
inner_steps = 10

PE = []
KE = []
rebuild_count = 0
realloc_count = 0

print(f'{"Step":>4} {"KE":>5} {"PE":>6} {"Total":>6} {"dt":>6} {"rebuild":>7} {"realloc":>7}')
old_time = time.time()

for i in range(N_steps):
  # Track reference position before inner loop
  old_ref_pos = nbrs_md.reference_position

  # Run inner_steps using fori_loop for efficiency
  new_state, new_nbrs = lax.fori_loop(0, inner_steps, step_fn, (state, nbrs_md))  # expect: review-compile-in-the-measurement

  # Check for buffer overflow after the loop
  # If overflow: discard new state, reallocate with extra capacity
  # If no overflow: accept new state
  if new_nbrs.did_buffer_overflow:
    # Reallocate with extra capacity (10 more neighbors per atom)
    nbrs_md = neighbor_fn_md.allocate(state.position, extra_capacity=10)
    realloc_count += 1
    print(f'  [Overflow at step {i * inner_steps}! Reallocating with extra capacity...]')
    # Don't advance state - retry from last good state
  else:
    # Accept the new state
    state = new_state
    nbrs_md = new_nbrs

    # Check if rebuild happened (reference position changed)
    new_ref_pos = nbrs_md.reference_position
    if not jnp.allclose(old_ref_pos, new_ref_pos):
      rebuild_count += 1

  pe = float(energy_fn_md(state.position, nbrs_md))
  ke = float(quantity.kinetic_energy(momentum=state.momentum))
  PE.append(pe)
  KE.append(ke)

  if i % print_every == 0 and i > 0:
    new_time = time.time()
    step_time = (new_time - old_time) / print_every / inner_steps
    print(
      f'{i * inner_steps:4d} {ke:5.1f} {pe:6.1f} {ke + pe:6.2f} '
      f'{step_time:6.4f} {rebuild_count:7d} {realloc_count:7d}'
    )
    old_time = new_time
