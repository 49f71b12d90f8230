"""How an optimizer applies a step's gradients to its variables: one update plan, chosen once.

`choose_plan` picks the fastest plan the optimizer and its backend allow when the optimizer is
built (`Optimizer._choose_plan`): `FusedPlan` (every variable as one flat variable,
`ops.fuse_variables`: torch), `KernelPlan` (the backend's kernel for the rule,
`ops.optimizer_kernel`) or `RulePlan` (the rule itself, `update_step` per variable: the
reference). Each plan names the `fallback` that serves the calls it cannot, and `plan_for` walks
that chain, in this one place, to the first plan that `applies` to the call: inside a stateless
scope (a pure step records its updates) neither the fused nor the kernel plan applies, and to a
subset of the variables the fused one does not.
"""

import functools

from tripod.backends import active
from tripod.backends.common import stateless

ops = active()

#: the methods whose override changes an optimizer's rule
_RULE_METHODS = ("update_step", "_prepare_step", "_update_moments")


class RulePlan:
    """The reference plan: weight decay, then the optimizer's rule (`update_step`) variable by
    variable. It serves every call, so it ends every chain of fallbacks."""

    fallback = None

    def __init__(self, optimizer):
        self.optimizer = optimizer

    def applies(self, indices):
        """Always: the rule runs anywhere, inside a stateless scope too."""
        return True

    def apply(self, grads, variables, indices, learning_rate):
        """Decay `variables` (at `indices` in build order), then update them from `grads`."""
        self.optimizer._apply_weight_decay(variables, indices, learning_rate)
        run_rule(self.optimizer, grads, variables, learning_rate)


class KernelPlan:
    """The backend's kernel for the rule (`ops.optimizer_kernel`: fewer passes over each
    variable), for a class naming a kernel whose rule no subclass overrides. Outside a stateless
    scope only: a pure step must record its updates, which the rule's `assign`s do."""

    def __init__(self, optimizer, fallback):
        self.optimizer = optimizer
        self.fallback = fallback

    def applies(self, indices):
        """Whether this call runs outside a stateless scope."""
        return stateless.current_scope() is None

    def apply(self, grads, variables, indices, learning_rate):
        """Decay, then update with the kernel; with the rule when the kernel declines this call
        (none under torch.compile or a distribution, a configuration or tensors it cannot take),
        having changed nothing."""
        self.optimizer._apply_weight_decay(variables, indices, learning_rate)
        if not self._run_kernel(grads, variables, learning_rate):
            run_rule(self.optimizer, grads, variables, learning_rate)

    def _run_kernel(self, grads, variables, learning_rate):
        """Update `variables` with the kernel; whether it ran (when not, nothing changed)."""
        optimizer = self.optimizer
        kernel = ops.optimizer_kernel(optimizer._kernel_name)
        if kernel is None:
            return False
        arguments = optimizer._kernel_arguments(learning_rate)
        if arguments is None:
            return False
        slot_lists, numbers = arguments
        positions = [optimizer._index[id(v)] for v in variables]
        slots = [
            [slot_list[i].value for i in positions] if slot_list else [] for slot_list in slot_lists
        ]
        return kernel([v.value for v in variables], grads, *slots, **numbers)


class FusedPlan:
    """Every trainable variable updated at once, as the one flat variable they are views of, by
    the fallback plan (kernel or rule): one op per step instead of one per variable. It serves
    calls that update every variable in build order, outside a stateless scope, while every
    variable makes the same weight-decay choice (an exclusion may change that after fusing)."""

    def __init__(self, optimizer, variable, fallback):
        self.optimizer = optimizer
        self.variable = variable
        self.fallback = fallback
        self._order = list(range(len(optimizer._trainable_variables)))

    def applies(self, indices):
        """Whether `indices` are all the variables in build order, decaying alike, outside a
        stateless scope (where the fallback, kernel or rule, applies too)."""
        return (
            indices == self._order
            and self.optimizer._uniform_decay
            and stateless.current_scope() is None
        )

    def apply(self, grads, variables, indices, learning_rate):
        """The fallback's update of the flat variable from the gradients joined end to end."""
        flat = [ops.concatenate([ops.reshape(g, (-1,)) for g in grads])]
        self.fallback.apply(flat, [self.variable], indices[:1], learning_rate)  # the first decides


def choose_plan(optimizer):
    """The plan a just-built `optimizer` updates with: its rule, run by the backend's kernel
    where its class names one and keeps that rule, on one flat variable where `fuse` makes one."""
    plan = RulePlan(optimizer)
    if optimizer._kernel_name is not None and _keeps_rule(type(optimizer)):
        plan = KernelPlan(optimizer, plan)
    fused = fuse(optimizer)
    return plan if fused is None else FusedPlan(optimizer, fused, plan)


def plan_for(optimizer, indices):
    """The plan for a call updating the variables at `indices`: the optimizer's plan (chosen
    now if not yet) or, down its fallbacks, the first that applies to this call."""
    optimizer._choose_plan()
    plan = optimizer._plan
    while not plan.applies(indices):
        plan = plan.fallback
    return plan


def run_rule(optimizer, grads, variables, learning_rate):
    """The optimizer's rule: `_prepare_step` once, then `update_step` on each variable."""
    optimizer._prepared = optimizer._prepare_step(learning_rate)
    try:
        for gradient, variable in zip(grads, variables):
            optimizer.update_step(gradient, variable, learning_rate)
    finally:
        optimizer._prepared = None  # a traced value must not outlive its step


def fuse(optimizer):
    """Make the trainable variables, and each slot list, views of one flat variable where the
    backend allows it (`ops.fuse_variables`); the flat slots join their lists at the flat
    variable's index. Values are unchanged, and so is every update: the rule's ops are
    elementwise, so one op on the flat tensor computes what one op per variable did. The flat
    variable, or None when the optimizer cannot fuse: its rule is not elementwise, or an option
    does not act on entries alike (`clipnorm`, accumulation, overwriting with gradients)."""
    variables = optimizer._trainable_variables
    count = len(variables)
    if not (
        optimizer._elementwise
        and count > 1
        and optimizer.clipnorm is None
        and not optimizer._any_overwrite
        and not optimizer.gradient_accumulation_steps
    ):
        return None
    fused = ops.fuse_variables(variables, f"{optimizer.name}/fused_variables")
    if fused is None:
        return None
    slots = [
        ops.fuse_variables(slot_list, f"{optimizer.name}/fused_slots_{i}")
        for i, slot_list in enumerate(optimizer._slot_lists)
    ]
    if any(slot is None for slot in slots):
        return None
    for slot_list, slot in zip(optimizer._slot_lists, slots):
        slot_list.append(slot)
    optimizer._index[id(fused)] = count
    return fused


@functools.cache
def _keeps_rule(cls):
    """Whether optimizer class `cls` computes the rule of the class that named its kernel: a
    subclass overriding a method of the rule runs that rule, never the kernel."""
    owner = next(c for c in cls.__mro__ if "_kernel_name" in vars(c))
    return all(getattr(cls, name, None) is getattr(owner, name, None) for name in _RULE_METHODS)
