"""Where per-channel int8 scales sit for an `EinsumDense` equation, in Keras 3's layout.

A scale computed over the contracted axes of the kernel (or of the inputs) keeps those axes as
size 1. Keras stores it rearranged so that it broadcasts against the einsum's output: its
remaining axes are moved into output order, each contracted axis takes the place of an output
axis the operand lacks, further such places get a new size-1 axis and contracted axes with no
place left are dropped. `AxisPlan` computes that rearrangement once for an operand and applies it
both ways, so `kernel_scale` variables match Keras's shapes and values.
"""

import string

from tripod.backends import active

ops = active()


def expanded_specs(equation, input_rank):
    """The input, kernel and output subscripts of `equation` with '...' replaced by letters for
    an input of rank `input_rank`."""
    spec_in, rest = equation.split(",")
    spec_kernel, spec_out = rest.split("->")
    if "..." not in spec_in:
        return spec_in, spec_kernel, spec_out
    used = set(spec_in + spec_kernel + spec_out)
    elided = input_rank - len(spec_in.replace("...", ""))
    fill = "".join([c for c in string.ascii_letters if c not in used][:elided])
    return spec_in.replace("...", fill), spec_kernel, spec_out.replace("...", fill)


class AxisPlan:
    """How a keepdims scale of an operand with subscripts `spec` maps to the output `out`."""

    def __init__(self, spec, out):
        self.reduced = [i for i, c in enumerate(spec) if c not in out]
        free = [i for i, c in enumerate(out) if c not in spec]
        perm = [spec.index(c) for c in out if c in spec]
        self.squeeze = []
        position = None
        for axis in self.reduced:
            if free:
                position = free.pop(0)
            else:
                self.squeeze.append(axis)
            perm.insert(position, axis)
        self.perm = perm
        self.expand = free

    def align(self, scale):
        """A keepdims scale of the operand, rearranged to broadcast against the output."""
        scale = ops.transpose(scale, self.perm)
        if self.expand:
            scale = ops.expand_dims(scale, tuple(self.expand))
        if self.squeeze:
            scale = ops.squeeze(scale, tuple(self.squeeze))
        return scale

    def unalign(self, scale):
        """The inverse of `align`: an output-aligned scale back in the operand's axis order."""
        if self.squeeze:
            scale = ops.expand_dims(scale, tuple(self.squeeze))
        if self.expand:
            scale = ops.squeeze(scale, tuple(self.expand))
        inverse = sorted(range(len(self.perm)), key=self.perm.__getitem__)
        return ops.transpose(scale, inverse)

    def aligned_shape(self, operand_shape):
        """The shape `align` gives for an operand of `operand_shape`."""
        shape = [1 if i in self.reduced else d for i, d in enumerate(operand_shape)]
        shape = [shape[i] for i in self.perm]
        for axis in sorted(self.expand):
            shape.insert(axis, 1)
        for axis in sorted(self.squeeze, reverse=True):
            shape.pop(axis)
        return tuple(shape)


class EinsumPlan:
    """The scale plans of an `EinsumDense` layer's inputs and kernel, and the equation of the
    inputs' gradient."""

    def __init__(self, equation, input_rank):
        spec_in, spec_kernel, spec_out = expanded_specs(equation, input_rank)
        self.inputs = AxisPlan(spec_in, spec_out)
        self.kernel = AxisPlan(spec_kernel, spec_out)
        self.gradient_equation = f"{spec_out},{spec_kernel}->{spec_in}"
