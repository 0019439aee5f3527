# source: jax-ml/jax
# path: docs/notebooks/Neural_Network_and_Data_Loading.md
# commit: cec06d116c05f0d52adfceee3d3b730fdbcb0ce5
# licence: Apache-2.0
# url: https://github.com/jax-ml/jax/blob/cec06d116c05f0d52adfceee3d3b730fdbcb0ce5/docs/notebooks/Neural_Network_and_Data_Loading.md#L169-L254
@jit
def update(params, x, y):
  grads = grad(loss)(params, x, y)
  return [(w - step_size * dw, b - step_size * db)
          for (w, b), (dw, db) in zip(params, grads)]
# ...
import time

for epoch in range(num_epochs):
  start_time = time.time()
  for x, y in training_generator:
    y = one_hot(y, n_targets)
    params = update(params, x, y)  # expect: review-compile-in-the-measurement
  epoch_time = time.time() - start_time  # expect: review-timing-without-blocking

  train_acc = accuracy(params, train_images, train_labels)
  test_acc = accuracy(params, test_images, test_labels)
  print("Epoch {} in {:0.2f} sec".format(epoch, epoch_time))
  print("Training set accuracy {}".format(train_acc))
  print("Test set accuracy {}".format(test_acc))
