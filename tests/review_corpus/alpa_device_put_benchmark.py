# source: alpa-projects/alpa
# path: playground/jax_basic/test_device_put.py
# commit: b8078a9f75cb4c90cabb4550ee48c99ef394e209
# licence: Apache-2.0
# url: https://github.com/alpa-projects/alpa/blob/b8078a9f75cb4c90cabb4550ee48c99ef394e209/playground/jax_basic/test_device_put.py#L9-L129
# note: jax_device_put blocks only on signal, an unrelated array that was ready long before, so none of the timed transfers is waited on; jax_device_put_sync waits for the image transfer but not for the separately dispatched label transfer. Both are timed by benchmark_func, whose toc line carries both labels
def benchmark_func(func):
    warmup = 1
    number = 2

    for i in range(warmup):
        func()
    jax.local_devices()[0].synchronize_all_activity()

    tic = time.time()
    for i in range(number):
        func()
    toc = time.time()  # expect: review-timing-without-blocking, review-one-output-of-several

    return (toc - tic) / number
# ...
if __name__ == "__main__":
    num_samples = 20000
    batch_size = 2048

    print("Init data...")
    np.random.seed(0)
    images = np.ones((num_samples, 224, 224, 3), dtype=np.float32)
    labels = np.ones((num_samples,), dtype=np.int32)
    steps_per_epoch = len(images) // batch_size
    # ...
    signal = jnp.ones((1024, 1024))

    def jax_device_put():
        for i in range(steps_per_epoch):
            batch_images = images[i * batch_size: (i+1)*batch_size]
            batch_labels = labels[i * batch_size: (i+1)*batch_size]
            jax.device_put(batch_images)
            jax.device_put(batch_labels)
            signal.block_until_ready()
    # ...
    def jax_device_put_sync():
        for i in range(steps_per_epoch):
            batch_images = images[i * batch_size: (i+1)*batch_size]
            batch_labels = labels[i * batch_size: (i+1)*batch_size]
            x = jax.device_put(batch_images)
            jax.device_put(batch_labels)
            x.block_until_ready()
    # ...
    time_jax_device_put = benchmark_func(jax_device_put)
    time_jax_device_put2 = benchmark_func(jax_device_put2)
    time_jax_device_put_sync = benchmark_func(jax_device_put_sync)
