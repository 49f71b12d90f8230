"""One optimizer step, as every optimizer takes it: the pipeline around the update plan.

`apply_step` runs `Optimizer.apply`: it drops the variables without a gradient, sets those
marked `overwrite_with_gradient` to it, unscales, then calls `update` (clipping, the update plan
of `update_plans`, constraints) on every step or, with gradient accumulation, on every few, then
moves the moving average (EMA) and counts the step. Choices that depend on values are
`ops.where` selections, so the step stays a pure computation inside a `StatelessScope` (JAX).
"""

import warnings

from tripod.backends import active
from tripod.backends.common import stateless
from tripod.training.optimizers import update_plans

ops = active()


def apply_step(optimizer, grads, trainable_variables):
    """One step of `optimizer`: update `trainable_variables` (default: those it was built with)
    from their `grads` (None entries skipped), then its averages and iteration counter."""
    grads, variables = optimizer._pairs(grads, trainable_variables)
    indices = [optimizer._get_variable_index(v) for v in variables]
    grads, variables, indices = overwrite_with_gradients(optimizer, grads, variables, indices)
    if optimizer.loss_scale_factor is not None:
        grads = [ops.divide(g, optimizer.loss_scale_factor) for g in grads]
    if optimizer.gradient_accumulation_steps:
        accumulate_then_update(optimizer, grads, variables, indices)
    else:
        update(optimizer, grads, variables, indices)
    if optimizer.use_ema:
        update_averages(optimizer)
    optimizer._iterations.assign_add(1)


def without_missing(optimizer, grads, variables):
    """The (gradients, variables) whose gradient is not None, warning about the others as
    Keras does; a ValueError when every gradient is None (nothing would train)."""
    kept = [(g, v) for g, v in zip(grads, variables) if g is not None]
    if not kept:
        raise ValueError(
            f"No gradients provided for any variable: optimizer {optimizer.name!r} received None for "
            f"all {len(grads)} gradients. Check that the loss depends on the variables."
        )
    missing = [getattr(v, "path", v) for g, v in zip(grads, variables) if g is None]
    warnings.warn(
        f"Gradients do not exist for variables {missing} when minimizing the loss; optimizer "
        f"{optimizer.name!r} leaves them unchanged. If using `model.compile()`, did you forget to "
        "provide a `loss` argument?",
        stacklevel=5,
    )
    return [g for g, _ in kept], [v for _, v in kept]


def overwrite_with_gradients(optimizer, grads, variables, indices):
    """Set variables marked `overwrite_with_gradient` to their gradient; the others remain."""
    if not optimizer._any_overwrite:
        return grads, variables, indices
    rest = []
    for g, v, i in zip(grads, variables, indices):
        if optimizer._overwrites[i]:
            v.assign(g)
        else:
            rest.append((g, v, i))
    return [r[0] for r in rest], [r[1] for r in rest], [r[2] for r in rest]


def update(optimizer, grads, variables, indices):
    """Clip the gradients, apply them with the update plan that serves this call (weight decay
    and the rule, its kernel, or both on the fused variable), then project each variable onto
    its constraint."""
    grads = clip_gradients(optimizer, grads)
    learning_rate = ops.cast(optimizer.learning_rate, "float32")
    update_plans.plan_for(optimizer, indices).apply(grads, variables, indices, learning_rate)
    if optimizer._any_constraint:
        for variable, index in zip(variables, indices):
            constraint = optimizer._constraints[index]
            if constraint is not None:
                variable.assign(constraint(variable.value))


def accumulate_then_update(optimizer, grads, variables, indices):
    """Add the gradients to the accumulators; every `gradient_accumulation_steps`-th call,
    update with their mean instead and reset them. Both outcomes are computed and one is
    selected, so the step stays a pure computation."""
    steps = optimizer.gradient_accumulation_steps
    accumulators = optimizer._accumulators
    is_update = ops.equal(ops.mod(ops.add(optimizer._iterations.value, 1), steps), 0)
    totals = [ops.add(accumulators[i], g) for g, i in zip(grads, indices)]
    with stateless.StatelessScope() as pending:
        update(optimizer, [ops.divide(total, steps) for total in totals], variables, indices)
    for variable, value in pending.updates:
        variable.assign(ops.where(is_update, value, variable.value))
    for total, index in zip(totals, indices):
        accumulators[index].assign(ops.where(is_update, 0.0, total))


def clip_gradients(optimizer, grads):
    """The gradients clipped as the optimizer's `clipnorm`, `clipvalue` or `global_clipnorm`
    asks (at most one is set); unchanged without any."""
    if optimizer.clipnorm is not None:
        clipnorm = optimizer.clipnorm
        return [ops.multiply(g, clipnorm / ops.maximum(norm(g), clipnorm)) for g in grads]
    if optimizer.clipvalue is not None:
        return [ops.clip(g, -optimizer.clipvalue, optimizer.clipvalue) for g in grads]
    if optimizer.global_clipnorm is not None:
        total = ops.sqrt(sum(ops.sum(ops.square(g)) for g in grads))
        scale = optimizer.global_clipnorm / ops.maximum(total, optimizer.global_clipnorm)
        return [ops.multiply(g, scale) for g in grads]
    return grads


def update_averages(optimizer):
    """Move each variable's moving average towards its value (the first update copies it);
    every `ema_overwrite_frequency` updates, also write the averages into the variables."""
    iterations = optimizer.iterations
    momentum = ops.where(ops.equal(iterations, 0), 0.0, float(optimizer.ema_momentum))
    pairs = list(zip(optimizer._trainable_variables, optimizer._averages))
    for variable, average in pairs:
        average.assign(
            ops.add(
                ops.multiply(average, momentum),
                ops.multiply(variable, ops.subtract(1.0, momentum)),
            )
        )
    if optimizer.ema_overwrite_frequency:
        overwrite = ops.equal(ops.mod(ops.add(iterations, 1), optimizer.ema_overwrite_frequency), 0)
        for variable, average in pairs:
            variable.assign(ops.where(overwrite, average.value, variable.value))


def norm(x):
    """The L2 norm of all entries of `x`."""
    return ops.sqrt(ops.sum(ops.square(x)))
