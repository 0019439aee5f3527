# source: pyro-ppl/numpyro
# path: examples/vae.py
# commit: 0b935d488056ae1775b4ab05cbe2812f51f21a4f
# licence: Apache-2.0
# url: https://github.com/pyro-ppl/numpyro/blob/0b935d488056ae1775b4ab05cbe2812f51f21a4f/examples/vae.py#L97-L159
# note: str.format evaluates time.time() - t_start as an argument before it formats test_loss, so the timer is read before test_loss (a separate eval_test dispatch) is waited on; the epoch_train result is waited on before the timer, indirectly, when reconstruct_img saves img_loc, computed from svi_state's params, with plt.imsave. Epoch 0 includes both compiles
    @jit
    def epoch_train(svi_state, rng_key, train_idx):
        # ...
        return lax.fori_loop(0, num_train, body_fn, (0.0, svi_state))

    @jit
    def eval_test(svi_state, rng_key, test_idx):
        # ...
        loss = lax.fori_loop(0, num_test, body_fun, 0.0)
        loss = loss / num_test
        return loss

    def reconstruct_img(epoch, rng_key):
        img = test_fetch(0, test_idx)[0][0]
        plt.imsave(
            os.path.join(RESULTS_DIR, "original_epoch={}.png".format(epoch)),
            img,
            cmap="gray",
        )
        rng_key_binarize, rng_key_sample = random.split(rng_key)
        test_sample = binarize(rng_key_binarize, img)
        params = svi.get_params(svi_state)
        z_mean, z_var = encoder_nn[1](
            params["encoder$params"], test_sample.reshape([1, -1])
        )
        z = dist.Normal(z_mean, z_var).sample(rng_key_sample)
        img_loc = decoder_nn[1](params["decoder$params"], z).reshape([28, 28])
        plt.imsave(
            os.path.join(RESULTS_DIR, "recons_epoch={}.png".format(epoch)),
            img_loc,
            cmap="gray",
        )

    for i in range(args.num_epochs):
        rng_key, rng_key_train, rng_key_test, rng_key_reconstruct = random.split(
            rng_key, 4
        )
        t_start = time.time()
        num_train, train_idx = train_init()
        _, svi_state = epoch_train(svi_state, rng_key_train, train_idx)  # expect: review-compile-in-the-measurement
        rng_key, rng_key_test, rng_key_reconstruct = random.split(rng_key, 3)
        num_test, test_idx = test_init()
        test_loss = eval_test(svi_state, rng_key_test, test_idx)  # expect: review-compile-in-the-measurement
        reconstruct_img(i, rng_key_reconstruct)
        print(
            "Epoch {}: loss = {} ({:.2f} s.)".format(
                i, test_loss, time.time() - t_start  # expect: review-one-output-of-several
            )
        )
