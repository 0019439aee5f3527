# source: google/trax
# path: trax/supervised/decoding_timing_test.py
# commit: 7c189c2c3a37851df7fc641b322a99bbe9f8aa10
# licence: Apache-2.0
# url: https://github.com/google/trax/blob/7c189c2c3a37851df7fc641b322a99bbe9f8aa10/trax/supervised/decoding_timing_test.py#L378-L425
# note: tl.Accelerate jits the layer (fastmath.jit); the 50 negative counters are an excluded warm-up, so no compile label. Checking y.shape does not wait for the result, and inputs is a NumPy array copied to the device on every timed call
  def test_loss_layer_timing(self):
    # ...
    messages = []
    for settings in all_settings:
      pred_model = tl.SparseDenseWithOptions(
          n_units=settings['output'],
          d_input=settings['input'],
          sparsity_type=settings['type'],
          sparsity=settings['sparsity'],
          d_lowrank=settings['lowrank'],
          prob_sparse=settings['prob'],
          use_bias=settings['use_bias'],
          mode='predict',
          )
      pred_model = tl.Accelerate(pred_model)

      shape1l = shapes.ShapeDtype((1, settings['input']))
      pred_model.init(input_signature=shape1l)
      inputs = np.ones((1, settings['input']))

      total_time = 0.0
      for counter in range(-50, 100):
        start_time = time.time()
        y = pred_model(inputs)  # expect: review-block-is-not-fetch
        self.assertEqual(y.shape, (1, settings['output']))
        elapsed_time = time.time() - start_time  # expect: review-timing-without-blocking
        if counter >= 0:
          total_time += elapsed_time

