# source: google-deepmind/dm-haiku
# path: examples/haiku_lstms.ipynb
# commit: f4d858a5cbb29140855d68f81f5fd625e078a5ae
# licence: Apache-2.0
# url: https://github.com/google-deepmind/dm-haiku/blob/f4d858a5cbb29140855d68f81f5fd625e078a5ae/examples/haiku_lstms.ipynb
# note: notebook/markdown code cell; contains IPython magics (%timeit/%time), not plain Python
# [cell 7]
class Dataset:
  """An iterator over a numpy array, revealing batch_size elements at a time."""
# ...
# [cell 16]
def autoregressive_predict(
    trained_params: hk.Params,
    context: jax.Array,
    seq_len: int,
):
  """Given a context, autoregressively generate the rest of a sine wave."""
  ar_outs = []
  context = jax.device_put(context)
  for _ in range(seq_len - context.shape[0]):
    full_context = jnp.concatenate([context] + ar_outs)
    outs, _ = jax.jit(model.apply)(trained_params, None, full_context)
    # Append the newest prediction to ar_outs.
    ar_outs.append(outs[-1:])
  # Return the final full prediction.
  return outs
# ...
# [cell 16]
sample_x, _ = next(valid_ds)
context_length = SEQ_LEN // 8
# Cut the batch-size 1 context from the start of the sequence.
context = sample_x[:context_length, :1]
# ...
# [cell 18]
fast_ar_predict = hk.transform(fast_autoregressive_predict_fn)
fast_ar_predict = jax.jit(fast_ar_predict.apply, static_argnums=3)
# Reuse the same context from the previous cell.
predicted = fast_ar_predict(trained_params, None, context, SEQ_LEN)
# ...
# [cell 19]
%timeit autoregressive_predict(trained_params, context, SEQ_LEN)  # expect: review-timing-without-blocking, review-block-is-not-fetch
%timeit fast_ar_predict(trained_params, None, context, SEQ_LEN)  # expect: review-timing-without-blocking, review-block-is-not-fetch
