"""`CallOutputs`, a base of `Layer`: output specs, shapes and masks, symbolic calls, the graph."""

import inspect

from tripod.backends import active
from tripod.backends.common import stateless, tree
from tripod.backends.common.keras_tensor import KerasTensor
from tripod.layers.build_shapes import shapes_of
from tripod.layers.input_spec import assert_input_compatibility
from tripod.layers.masks import get_keras_mask, pack_masks, set_keras_mask
from tripod.layers.node import Node

ops = active()


class CallOutputs:
    """Mixin of `Layer`: output specs, shapes and masks, symbolic calls and graph access."""

    def _symbolic_call(self, args, kwargs):
        """Call on KerasTensors: build, check, infer the output specs, record a Node."""
        if not self.built:
            self._maybe_build(args, kwargs)
        if self.input_spec is not None and args:
            assert_input_compatibility(self.input_spec, args[0], self.name)
        kwargs = dict(kwargs)
        if not self._call_has_training_arg:
            kwargs.pop("training", None)
        input_masks = [
            getattr(x, "_keras_mask", None) for x in tree.flatten(args[0] if args else ())
        ]
        if (
            self._call_has_mask_arg
            and "mask" not in kwargs
            and any(m is not None for m in input_masks)
        ):
            kwargs["mask"] = pack_masks(args[0], input_masks)
        with stateless.StatelessScope():
            outputs = self.compute_output_spec(*args, **kwargs)
        outputs = tree.map_structure(
            lambda s: KerasTensor(s.shape, s.dtype) if s is not None else None, outputs
        )
        self._attach_symbolic_masks(args, kwargs, outputs, input_masks)
        Node(self, args, kwargs, outputs)
        return outputs

    def _attach_symbolic_masks(self, args, kwargs, outputs, input_masks):
        """Give the symbolic outputs the masks that `compute_mask` gives the real ones."""
        if not args:
            return
        mask = kwargs.get("mask", pack_masks(args[0], input_masks))
        if type(self).compute_mask is not CallOutputs.compute_mask:
            with stateless.StatelessScope():
                masks = ops.compute_output_spec(self.compute_mask, args[0], mask)
            masks = tree.map_structure(
                lambda m: KerasTensor(m.shape, m.dtype) if m is not None else None, masks
            )
        elif self.supports_masking and mask is not None:
            masks = mask  # passed through: the very same symbolic mask
        else:
            return
        flat_outputs = tree.flatten(outputs)
        flat_masks = tree.flatten(masks) if tree.is_nested(masks) else [masks] * len(flat_outputs)
        for out, m in zip(flat_outputs, flat_masks):
            if out is not None:
                out._keras_mask = m

    def compute_output_spec(self, *args, **kwargs):
        """The output KerasTensors for these inputs: from `compute_output_shape` when the layer
        defines it, else by tracing `call` abstractly on the backend."""
        if type(self).compute_output_shape is not CallOutputs.compute_output_shape:
            shapes = self.compute_output_shape(*self._output_shape_args(args, kwargs))
            return tree.map_shape_structure(lambda s: KerasTensor(s, self.compute_dtype), shapes)
        return ops.compute_output_spec(self.call, *args, **kwargs)

    def _output_shape_args(self, args, kwargs):
        """The shapes `compute_output_shape` takes for these call arguments, as Keras passes
        them: one parameter takes the first argument's shape; parameters all named
        `<argument>_shape` take the shapes of the call arguments so named, however passed."""
        params = [
            p.name
            for p in inspect.signature(self.compute_output_shape).parameters.values()
            if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
        ]
        bound = dict(zip(self._call_arg_names, args), **kwargs)
        if len(params) > 1 and all(name.endswith("_shape") for name in params):
            return [shapes_of(bound.get(name.removesuffix("_shape"))) for name in params]
        return [shapes_of(self._first_argument(args, kwargs))]

    def _first_argument(self, args, kwargs):
        """The call's first argument in `call`'s signature order, however it was passed (a
        `**kwargs` call's first keyword otherwise)."""
        if args:
            return args[0]
        named = (kwargs[n] for n in self._call_arg_names if n in kwargs)
        return next(named, next(iter(kwargs.values()), None))

    def compute_output_shape(self, *args, **kwargs):
        """The output shape for inputs of the given shape (None dims stay None)."""
        specs = tree.map_shape_structure(lambda s: KerasTensor(s, self.compute_dtype), args[0])
        with stateless.StatelessScope():
            out = self.compute_output_spec(specs, *args[1:], **kwargs)
        return tree.map_structure(lambda t: t.shape, out)

    def compute_mask(self, inputs, previous_mask):
        """The mask of the outputs: the input mask passes through layers that support masking."""
        return previous_mask if self.supports_masking else None

    def _attach_eager_masks(self, inputs, outputs, previous_mask):
        """Attach the masks `compute_mask` gives to the eager outputs that carry none yet."""
        flat_outputs = [y for y in tree.flatten(outputs) if y is not None]
        if all(get_keras_mask(y) is not None for y in flat_outputs):
            return
        masks = self.compute_mask(inputs, previous_mask)
        if masks is None:
            return
        flat_masks = tree.flatten(masks) if tree.is_nested(masks) else [masks] * len(flat_outputs)
        for y, mask in zip(flat_outputs, flat_masks):
            if mask is not None and get_keras_mask(y) is None:
                set_keras_mask(y, mask)

    # -- graph access ----------------------------------------------------------------------------
    @property
    def input(self):
        """The symbolic input of the layer's first call in a functional graph."""
        return self._node_attribute("input")

    @property
    def output(self):
        """The symbolic output of the layer's first call in a functional graph."""
        return self._node_attribute("output")

    def _node_attribute(self, what):
        if not self._inbound_nodes:
            raise AttributeError(f"Layer '{self.name}' has never been called, so it has no {what}.")
        node = self._inbound_nodes[0]
        if what == "input":
            values = node.input_tensors
            return values[0] if len(values) == 1 else values
        return node.outputs
