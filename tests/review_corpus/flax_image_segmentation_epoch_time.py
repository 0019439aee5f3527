# source: google/flax
# path: docs_nnx/examples/image_segmentation.md
# commit: 18f8f311c275d57f46d95e41b15aa97b454754c0
# licence: Apache-2.0
# url: https://github.com/google/flax/blob/18f8f311c275d57f46d95e41b15aa97b454754c0/docs_nnx/examples/image_segmentation.md#L1217-L1375
@nnx.jit(donate_argnames=("model", "optimizer"))
def train_step(
    model: nnx.Module, 
    optimizer: nnx.Optimizer, 
    rngs: nnx.Rngs,
    batch: tuple[jax.Array, jax.Array],
):
# ...
def train_one_epoch(epoch):
    start_time = time.time()

    with jax.set_mesh(mesh):
        for step, batch in enumerate(train_loader):
    
            # Convert np.ndarray to jax.Array on GPUs
            images = jax.device_put(batch["image"], device=jax.P("fsdp"))
            masks = jax.device_put(batch["mask"].astype(int), device=jax.P("fsdp"))
            
            total_loss, xentropy_loss, jaccard_loss = train_step(model, optimizer, rngs, (images, masks))  # expect: review-compile-in-the-measurement
    
            print(
                f"\r[train] epoch: {epoch + 1}/{num_epochs}, iteration: {step}/{total_steps}, "
                f"total loss: {total_loss.item():.4f} ",
                f"xentropy loss: {xentropy_loss.item():.4f} ",
                f"jaccard loss: {jaccard_loss.item():.4f} ",
                end="")
            print("\r", end="")

    elapsed = time.time() - start_time
    print(
        f"\n[train] epoch: {epoch + 1}/{num_epochs}, elapsed time: {elapsed:.2f} seconds"
    )
# ...
best_val_mean_iou = 0.0
for epoch in range(num_epochs):
    train_one_epoch(epoch)
