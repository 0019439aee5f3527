# source: jax-md/jax-md
# path: notebooks/jax_md_cookbook.ipynb
# commit: a41c7d19f6468f4e5263c32c12c9ed6cba26ebff
# licence: Apache-2.0
# url: https://github.com/jax-md/jax-md/blob/a41c7d19f6468f4e5263c32c12c9ed6cba26ebff/notebooks/jax_md_cookbook.ipynb
# [cell 64]
# Define and jit a single update step.
@jit
def update_step(state, batch):
# ...
# [cell 64]
# Do the training.
t = time.time()
train_losses = []
test_losses = []

for i, b in ProgressIter(enumerate(batch(key)), train_steps):
  state = update_step(state, b)  # expect: review-compile-in-the-measurement

  # Print some diagnostics.
  if i and i % print_every == 0:
    dt = time.time() - t  # expect: review-timing-without-blocking
    train_loss = loss(get_params(state), train_positions, train_features)
    train_losses += [train_loss]

    test_loss = loss(get_params(state), test_positions, test_features)
    test_losses += [test_loss]

    print(('Time: {:5.2f}\tStep: {:4d}\t'
           'Training-loss: {:5.4f}\tTest-loss: {:5.4f}').format(
        dt, i, train_loss, test_loss))
    t = time.time()
