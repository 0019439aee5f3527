# source: alpa-projects/alpa
# path: examples/mnist/train.py
# commit: b8078a9f75cb4c90cabb4550ee48c99ef394e209
# licence: Apache-2.0
# url: https://github.com/alpa-projects/alpa/blob/b8078a9f75cb4c90cabb4550ee48c99ef394e209/examples/mnist/train.py#L58-L150
# note: alpa.parallelize compiles train_step at its first call, inside epoch 1's timer (the call is in train_epoch, line 94; labelled at the timed call). The wait is sound: train_epoch fetches every step's loss and accuracy with np.mean, and the state comes from the same calls
@alpa.parallelize
def train_step(state, images, labels):
  # ...
  return state, loss, accuracy
# ...
def train_epoch(state, train_ds, batch_size):
  """Train for a single epoch."""
  train_ds_size = len(train_ds['image'])
  steps_per_epoch = train_ds_size // batch_size

  epoch_loss = []
  epoch_accuracy = []

  for i in range(steps_per_epoch):
    batch_images = train_ds['image'][i*batch_size:(i+1)*batch_size]
    batch_labels = train_ds['label'][i*batch_size:(i+1)*batch_size]
    state, loss, accuracy = train_step(state, batch_images, batch_labels)
    epoch_loss.append(loss)
    epoch_accuracy.append(accuracy)
  alpa.prefetch((epoch_loss, epoch_accuracy))
  train_loss = np.mean(epoch_loss)
  train_accuracy = np.mean(epoch_accuracy)
  return state, train_loss, train_accuracy
# ...
  for epoch in range(1, config.num_epochs + 1):
    tic = time.time()
    state, train_loss, train_accuracy = train_epoch(state, train_ds,  # expect: review-compile-in-the-measurement
                                                    config.batch_size)
    epoch_time = time.time() - tic
    test_loss, test_accuracy = eval_step(state, test_ds['image'], test_ds['label'])
    test_accuracy = np.array(test_accuracy)
