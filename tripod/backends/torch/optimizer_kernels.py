"""Fused optimizer kernels: Adam, SGD, RMSprop and Adagrad rules in torch's in-place foreach ops.

Each kernel computes the rule its tripod optimizer writes in `tripod.ops` (Keras's formulas:
epsilon placement, the running means as `m + (g - m) * (1 - beta)`) on lists of tensors — one
flat tensor when the optimizer fused its variables — in fewer elementwise passes: fused ops
(`lerp_`, `addcmul_`, `addcdiv_`) write into the slots and variables instead of new tensors.
The results differ from the reference in rounding only. A kernel returns False, having changed
nothing, when it cannot run the update (tensors of mixed dtypes or devices, or not plain
tensors); the optimizer then runs its reference rule.
"""

import torch

from tripod.backends.torch import distribution


def optimizer_kernel(name):
    """The kernel for rule `name`, or None where the reference rule must run: inside a
    torch.compile trace (which compiles the reference) or under a distribution engine (whose
    parameters may be DTensors)."""
    if torch.compiler.is_compiling() or distribution.engaged():
        return None
    return KERNELS.get(name)


def _runnable(variables, *lists):
    """Whether the variables and the other lists of tensors can be updated together: plain
    dense tensors of one floating dtype on one device (and at least one variable)."""
    if not variables:
        return False
    first = variables[0]
    return (
        all(
            type(t) in (torch.Tensor, torch.nn.Parameter)
            and t.dtype == first.dtype
            and t.device == first.device
            and t.layout == torch.strided
            for tensors in (variables, *lists)
            for t in tensors
        )
        and first.dtype.is_floating_point
    )


def adam(variables, grads, moments, velocities, *, step_size, beta_1, beta_2, epsilon):
    """Adam: `m, v` move towards `g, g*g`, then `w -= step_size * m / (sqrt(v) + epsilon)`
    (step_size holds the bias corrections). 6 passes against the reference's 12."""
    if not _runnable(variables, grads, moments, velocities):
        return False
    torch._foreach_lerp_(moments, grads, 1.0 - beta_1)
    torch._foreach_lerp_(velocities, torch._foreach_mul(grads, grads), 1.0 - beta_2)
    denominators = torch._foreach_sqrt(velocities)
    torch._foreach_add_(denominators, epsilon)
    torch._foreach_addcdiv_(variables, moments, denominators, -step_size)
    return True


def sgd(variables, grads, momentums, *, learning_rate, momentum, nesterov):
    """SGD: `w -= lr * g`; with momentum `m = momentum * m - lr * g` and `w += m` (nesterov:
    `w += momentum * m - lr * g`, summed before it is added, as the rule does). 1, 3 or 5
    passes against the reference's 3, 6 or 8."""
    if not _runnable(variables, grads, *([momentums] if momentum else [])):
        return False
    if not momentum:
        torch._foreach_add_(variables, grads, alpha=-learning_rate)
        return True
    torch._foreach_mul_(momentums, momentum)
    torch._foreach_add_(momentums, grads, alpha=-learning_rate)
    steps = momentums
    if nesterov:
        steps = torch._foreach_mul(momentums, momentum)
        torch._foreach_add_(steps, grads, alpha=-learning_rate)
    torch._foreach_add_(variables, steps)
    return True


def rmsprop(
    variables,
    grads,
    velocities,
    momentums,
    averages,
    *,
    learning_rate,
    rho,
    momentum,
    epsilon,
    centered,
):
    """RMSprop: `v` moves towards `g*g` (centered: minus the square of `a`, the running mean of
    `g`), the step is `lr * g * rsqrt(v + epsilon)`, smoothed by momentum when set."""
    if not _runnable(
        variables,
        grads,
        velocities,
        *([averages] if centered else []),
        *([momentums] if momentum > 0 else []),
    ):
        return False
    torch._foreach_lerp_(velocities, torch._foreach_mul(grads, grads), 1.0 - rho)
    if centered:
        torch._foreach_lerp_(averages, grads, 1.0 - rho)
        scales = torch._foreach_addcmul(velocities, averages, averages, value=-1.0)
        torch._foreach_add_(scales, epsilon)
    else:
        scales = torch._foreach_add(velocities, epsilon)
    torch._foreach_rsqrt_(scales)
    torch._foreach_mul_(scales, grads)
    if momentum > 0:
        torch._foreach_mul_(momentums, momentum)
        torch._foreach_add_(momentums, scales, alpha=learning_rate)
        torch._foreach_sub_(variables, momentums)
    else:
        torch._foreach_add_(variables, scales, alpha=-learning_rate)
    return True


def adagrad(variables, grads, accumulators, *, learning_rate, epsilon):
    """Adagrad: `acc += g*g`, then `w -= lr * g / sqrt(acc + epsilon)`. 4 passes against the
    reference's 9."""
    if not _runnable(variables, grads, accumulators):
        return False
    torch._foreach_addcmul_(accumulators, grads, grads)
    denominators = torch._foreach_add(accumulators, epsilon)
    torch._foreach_sqrt_(denominators)
    torch._foreach_addcdiv_(variables, grads, denominators, -learning_rate)
    return True


#: rule name -> kernel
KERNELS = {"adam": adam, "sgd": sgd, "rmsprop": rmsprop, "adagrad": adagrad}
