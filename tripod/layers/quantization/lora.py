"""LoRA: a frozen weight `W` plus a trainable low-rank update, `W + (alpha / rank) * A @ B`.

`A` has the weight's shape with its last axis replaced by `rank`, `B` is `(rank, last axis)`;
both are float32 and named as Keras 3 names them (`lora_kernel_a`, `lora_embeddings_b`, ...).
`B` starts at zero, so enabling LoRA leaves the layer's outputs unchanged.
"""

from tripod.backends import active
from tripod.layers.quantization import variables

ops = active()


def check_can_enable(layer, kind):
    """Raise Keras's errors when LoRA cannot be enabled on `layer` now."""
    if getattr(layer, f"{kind.weight}_constraint", None) is not None:
        raise ValueError(
            f"{type(layer).__name__} '{layer.name}': LoRA is incompatible with "
            f"{kind.weight} constraints; remove the `{kind.weight}_constraint` argument to "
            "enable it."
        )
    if not layer.built:
        raise ValueError(
            f"{type(layer).__name__} '{layer.name}': cannot enable LoRA on a layer that is not "
            "built yet."
        )
    if layer.lora_enabled:
        raise ValueError(
            f"{type(layer).__name__} '{layer.name}': LoRA is already enabled; it can be enabled "
            "only once per layer."
        )


def enable(layer, kind, rank, lora_alpha, a_initializer, b_initializer):
    """Freeze `layer`'s weight and add the trainable `A` and `B` of rank `rank`."""
    check_can_enable(layer, kind)
    if not isinstance(rank, int) or isinstance(rank, bool) or rank <= 0:
        raise ValueError(
            f"{type(layer).__name__} '{layer.name}': the LoRA rank must be a positive integer, "
            f"received {rank!r}."
        )
    base = getattr(layer, kind.weight)
    shape = tuple(base.shape)
    regularizer = getattr(layer, f"{kind.weight}_regularizer", None)
    name_a, name_b = kind.lora
    for name, part_shape, init in (
        (name_a, shape[:-1] + (rank,), a_initializer),
        (name_b, (rank, shape[-1]), b_initializer),
    ):
        created = variables.add(
            layer,
            name=name,
            shape=part_shape,
            initializer=init,
            dtype="float32",
            regularizer=regularizer,
        )
        setattr(layer, name, created)
    base.trainable = False
    layer.lora_enabled = True
    layer.lora_rank = rank
    layer.lora_alpha = rank if lora_alpha is None else lora_alpha


def delta(layer, kind):
    """`(alpha / rank) * A @ B`, the update LoRA adds to the weight."""
    a, b = (getattr(layer, name).value for name in kind.lora)
    return ops.multiply(layer.lora_alpha / layer.lora_rank, ops.matmul(a, b))


def merged(layer, kind, weight):
    """A float `weight` plus the LoRA update, in the layer's compute dtype."""
    return ops.cast(ops.add(weight, delta(layer, kind)), layer.compute_dtype)


def project(layer, kind, inputs):
    """The LoRA term of the outputs, `(alpha / rank) * project(inputs, A) @ B`."""
    a, b = (getattr(layer, name).value for name in kind.lora)
    return ops.multiply(layer.lora_alpha / layer.lora_rank, kind.lora_project(layer, inputs, a, b))


def reset(layer, kind):
    """Zero `A` and `B` (after loading a merged weight, as Keras does)."""
    for name in kind.lora:
        part = getattr(layer, name)
        part.assign(ops.zeros(tuple(part.shape), dtype=part.dtype))
