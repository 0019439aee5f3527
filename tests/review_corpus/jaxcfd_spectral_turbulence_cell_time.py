# source: google/jax-cfd
# path: notebooks/spectral_forced_turbulence.ipynb
# commit: a1b5b51e982d19c3ff4a9fa89fe1ff396eed5a60
# licence: Apache-2.0
# url: https://github.com/google/jax-cfd/blob/a1b5b51e982d19c3ff4a9fa89fe1ff396eed5a60/notebooks/spectral_forced_turbulence.ipynb
# note: notebook/markdown code cell; contains IPython magics (%timeit/%time), not plain Python
# note: the %%time cell ends with the assignment of the trajectory_fn result, which nothing waits on, so the reported wall time stops when the scan has been dispatched (it does include tracing and compiling the eager lax.scan, which run synchronously; not labelled compile-in-the-measurement as no jitted function is shown)
# [cell 0]
import jax
import jax.numpy as jnp
import matplotlib.pyplot as plt
import seaborn as sns
import xarray

import jax_cfd.base as cfd
import jax_cfd.base.grids as grids
import jax_cfd.spectral as spectral

import dataclasses
# ...
# [cell 2]
%%time 

# physical parameters
viscosity = 1e-3
max_velocity = 7
grid = grids.Grid((256, 256), domain=((0, 2 * jnp.pi), (0, 2 * jnp.pi)))
dt = cfd.equations.stable_time_step(max_velocity, .5, viscosity, grid)

# setup step function using crank-nicolson runge-kutta order 4
smooth = True # use anti-aliasing 
step_fn = spectral.time_stepping.crank_nicolson_rk4(
    spectral.equations.NavierStokes2D(viscosity, grid, smooth=smooth), dt)

# run the simulation up until time 25.0 but only save 10 frames for visualization
final_time = 25.0
outer_steps = 10
inner_steps = (final_time // dt) // 10

trajectory_fn = cfd.funcutils.trajectory(
    cfd.funcutils.repeated(step_fn, inner_steps), outer_steps)

# create an initial velocity field and compute the fft of the vorticity.
# the spectral code assumes an fft'd vorticity for an initial state
v0 = cfd.initial_conditions.filtered_velocity_field(jax.random.PRNGKey(42), grid, max_velocity, 4)
vorticity0 = cfd.finite_differences.curl_2d(v0).data
vorticity_hat0 = jnp.fft.rfftn(vorticity0)

_, trajectory = trajectory_fn(vorticity_hat0)  # expect: review-timing-without-blocking
