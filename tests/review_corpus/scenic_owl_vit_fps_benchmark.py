# source: google-research/scenic
# path: scenic/projects/owl_vit/notebooks/OWL_ViT_minimal_example.ipynb
# commit: 4a38d475ee89cb821078c0e2bf2065ee030e1535
# licence: Apache-2.0
# url: https://github.com/google-research/scenic/blob/4a38d475ee89cb821078c0e2bf2065ee030e1535/scenic/projects/owl_vit/notebooks/OWL_ViT_minimal_example.ipynb
# note: both outputs of the one jitted predict call are blocked before each timer read; the first of the 6 trials compiles, and the median of 6 never uses the largest value, so the compile trial is dropped (the notebook's comment says so)
# expect: clean
# [cell 33]
@jax.jit
def predict(image, query_embeddings):
  return module.apply(variables, image, query_embeddings)
# [cell 34]
import time

# Get fake query embeddings for benchmarking (1203 classes):
embed_dim = models.clip_model.CONFIGS[config.model.body.variant]['embed_dim']
query_embeddings = jax.random.normal(jax.random.PRNGKey(0), (1203, embed_dim))

# Resolutions at which to benchmark the model:
if config.model.body.patch_size == 16:
  sizes = [368, 400, 448, 480, 528, 576, 624, 672, 736, 784, 848, 896, 960]
else:
  raise ValueError(
      'Please define image sizes for patch size:'
      f' {config.model.body.patch_size}'
  )
num_trials = 5
all_timings = {}
for image_size in sizes:
  print(f'Benchmarking image size: {image_size}')

  # Get fake image for benchmarking:
  image = jax.random.uniform(jax.random.PRNGKey(0), (image_size, image_size, 3))
  timings = []
  for i in range(num_trials + 1):  # Add 1 trial to account for compilation.
    start_time = time.time()
    boxes, logits = predict(image, query_embeddings)
    _ = jax.block_until_ready((boxes, logits))
    timings.append(time.time() - start_time)

  # Store the median. Note that the first trial will always be very slow due to
  # model commpilation:
  all_timings[image_size] = np.median(timings)
  print(f'FPS at resolution={image_size}: {1/all_timings[image_size]:.2f}\n')
