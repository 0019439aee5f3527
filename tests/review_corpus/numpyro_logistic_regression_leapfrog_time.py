# source: pyro-ppl/numpyro
# path: notebooks/source/logistic_regression.ipynb
# commit: 0b935d488056ae1775b4ab05cbe2812f51f21a4f
# licence: Apache-2.0
# url: https://github.com/pyro-ppl/numpyro/blob/0b935d488056ae1775b4ab05cbe2812f51f21a4f/notebooks/source/logistic_regression.ipynb
# note: with progress_bar=False, mcmc.run returns device arrays from a jitted fori loop without waiting, and .sum().copy() is another asynchronous JAX op, so toc is read before the sampling is known to be done; num_leapfrogs is first fetched by the print after toc. mcmc.warmup runs first, meant to keep compilation out
# [cell 9]
step_size = jnp.sqrt(0.5 / N)
kernel = HMC(
    model,
    step_size=step_size,
    trajectory_length=(10 * step_size),
    adapt_step_size=False,
)
mcmc = MCMC(kernel, num_warmup=500, num_samples=500, progress_bar=False)
mcmc.warmup(random.key(2019), features, labels, extra_fields=("num_steps",))
mcmc.get_extra_fields()["num_steps"].sum().copy()
tic = time.time()
mcmc.run(random.key(2020), features, labels, extra_fields=["num_steps"])
num_leapfrogs = mcmc.get_extra_fields()["num_steps"].sum().copy()
toc = time.time()  # expect: review-timing-without-blocking
print("number of leapfrog steps:", num_leapfrogs)
print("avg. time for each step :", (toc - tic) / num_leapfrogs)
mcmc.print_summary()
# ...
# [cell 12]
mcmc = MCMC(NUTS(model), num_warmup=50, num_samples=50, progress_bar=False)
mcmc.warmup(random.key(2019), features, labels, extra_fields=("num_steps",))
mcmc.get_extra_fields()["num_steps"].sum().copy()
tic = time.time()
mcmc.run(random.key(2020), features, labels, extra_fields=["num_steps"])
num_leapfrogs = mcmc.get_extra_fields()["num_steps"].sum().copy()
toc = time.time()  # expect: review-timing-without-blocking
print("number of leapfrog steps:", num_leapfrogs)
print("avg. time for each step :", (toc - tic) / num_leapfrogs)
mcmc.print_summary()
