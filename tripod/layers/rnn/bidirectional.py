"""`Bidirectional`: a recurrent layer run forwards and a copy run backwards, outputs merged."""

from tripod.backends import active
from tripod.layers.layer import Layer
from tripod.saving import serialization

ops = active()

_MERGE_MODES = ("sum", "mul", "ave", "concat", None)


def _merge(mode, forward, backward):
    if mode == "concat":
        return ops.concatenate([forward, backward], axis=-1)
    if mode == "sum":
        return ops.add(forward, backward)
    if mode == "ave":
        return ops.multiply(ops.add(forward, backward), 0.5)
    if mode == "mul":
        return ops.multiply(forward, backward)
    return [forward, backward]


def _copy(layer, name, **changes):
    """A fresh layer from `layer`'s config, renamed and with `changes` applied."""
    config = {**layer.get_config(), "name": name, **changes}
    return type(layer).from_config(config)


class Bidirectional(Layer):
    """Runs a recurrent layer over the sequence in both directions and merges the two outputs.

    `forward_layer` is a copy of `layer`; `backward_layer` (a copy with `go_backwards` flipped,
    unless one is given) reads the sequence from the end. With `return_sequences` the backward
    outputs are put back in time order before merging, so step t of both directions lines up.
    With `return_state` the output is followed by the forward states, then the backward ones.

    Args:
        layer: a recurrent layer (e.g. `LSTM`, `GRU`, `RNN`), copied for each direction.
        merge_mode: how the two outputs are combined: "concat" (default, along the last axis),
            "sum", "mul", "ave" (their mean) or None (a list of the two).
        weights: list of arrays, initial weights set (as by `set_weights`) when the layer is
            built.
        backward_layer: a recurrent layer for the backward direction; its `go_backwards` must
            differ from `layer`'s, and its `return_sequences`, `return_state` and `stateful`
            must match; default a copy of `layer`.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `layer` or `backward_layer` is not a recurrent layer, `merge_mode` is
            unknown, or the two layers do not pair up as above.

    Examples:
        >>> x = np.zeros((2, 5, 3))
        >>> tuple(tripod.layers.Bidirectional(tripod.layers.LSTM(4))(x).shape)
        (2, 8)
        >>> rnn = tripod.layers.SimpleRNN(  # a running sum of the steps
        ...     1, activation=None, kernel_initializer="ones", recurrent_initializer="ones",
        ...     return_sequences=True,
        ... )
        >>> both = tripod.layers.Bidirectional(rnn)  # [sum up to t, sum from t]
        >>> print(tripod.ops.convert_to_numpy(both(np.array([[[1.0], [2.0], [3.0]]])))[0])
        [[1. 6.]
         [3. 5.]
         [6. 3.]]
    """

    # Keras keeps the layer it was given but neither tracks nor saves it: its copies hold the
    # weights.
    _UNTRACKED = Layer._UNTRACKED | {"layer"}

    def __init__(self, layer, merge_mode="concat", weights=None, backward_layer=None, **kwargs):
        super().__init__(weights=weights, **kwargs)
        for arg, value in (("layer", layer), ("backward_layer", backward_layer)):
            optional = arg == "backward_layer" and value is None
            if not optional and (
                not isinstance(value, Layer) or not hasattr(value, "go_backwards")
            ):
                raise ValueError(
                    f"Bidirectional '{self.name}': {arg} must be a recurrent layer (with "
                    "`go_backwards`, "
                    f"`return_sequences` and `return_state`), received {value!r}."
                )
        if merge_mode not in _MERGE_MODES:
            raise ValueError(
                f"Bidirectional '{self.name}': invalid merge_mode {merge_mode!r}; expected one of "
                "'sum', 'mul', 'ave', 'concat' or None."
            )
        self.layer = layer
        self.forward_layer = _copy(layer, "forward_" + layer.name)
        if backward_layer is None:
            backward_layer = _copy(
                layer, "backward_" + layer.name, go_backwards=not layer.go_backwards
            )
        self._check_pair(layer, backward_layer)
        self.backward_layer = backward_layer
        for direction in (self.forward_layer, backward_layer):
            # as Keras: masked steps of merged sequences are zeros in both directions
            direction.zero_output_for_mask = direction.return_sequences
        self.merge_mode = merge_mode
        self.return_sequences = layer.return_sequences
        self.return_state = layer.return_state
        self.stateful = layer.stateful
        self.supports_masking = True

    def _check_pair(self, forward, backward):
        if forward.go_backwards == backward.go_backwards:
            raise ValueError(
                f"Bidirectional '{self.name}': the forward and backward layers must have different "
                f"go_backwards values, received {forward.go_backwards} for both."
            )
        for attr in ("return_sequences", "return_state", "stateful"):
            if getattr(forward, attr) != getattr(backward, attr):
                raise ValueError(
                    f"Bidirectional '{self.name}': the forward and backward layers must have the "
                    "same "
                    f"{attr}, received {getattr(forward, attr)} and {getattr(backward, attr)}."
                )

    def build(self, input_shape):
        for layer in (self.forward_layer, self.backward_layer):
            if not layer.built:
                layer.build_from_config({"input_shape": tuple(input_shape)})
        self.built = True

    def call(self, sequences, initial_state=None, mask=None, training=None):
        forward_state = backward_state = None
        if initial_state is not None:
            half = len(initial_state) // 2
            forward_state, backward_state = initial_state[:half], initial_state[half:]
        forward = self.forward_layer(
            sequences, initial_state=forward_state, mask=mask, training=training
        )
        backward = self.backward_layer(
            sequences, initial_state=backward_state, mask=mask, training=training
        )
        states = []
        if self.return_state:
            forward, states = forward[0], list(forward[1:])
            backward, backward_states = backward[0], list(backward[1:])
            states += backward_states
        if self.return_sequences:
            backward = ops.flip(backward, axis=1)
        output = _merge(self.merge_mode, forward, backward)
        if not self.return_state:
            return output
        return (output if self.merge_mode is None else [output]) + states

    def reset_states(self):
        """Reset the held states of both stateful directions."""
        self.forward_layer.reset_states()
        self.backward_layer.reset_states()

    reset_state = reset_states

    def compute_mask(self, inputs, mask):
        if isinstance(mask, (list, tuple)):
            mask = mask[0]
        mask = mask if self.return_sequences else None
        masks = [mask, mask] if self.merge_mode is None else [mask]
        if self.return_state:
            return masks + [None] * (2 * len(self.forward_layer._state_structure()))
        return masks if self.merge_mode is None else mask

    def compute_output_shape(self, sequences_shape, initial_state_shape=None):
        shapes = self.forward_layer.compute_output_shape(sequences_shape)
        output, states = (shapes[0], list(shapes[1:])) if self.return_state else (shapes, [])
        if self.merge_mode == "concat":
            outputs = [tuple(output[:-1]) + (output[-1] * 2,)]
        elif self.merge_mode is None:
            outputs = [output, output]
        else:
            outputs = [output]
        if not self.return_state:
            return outputs[0] if len(outputs) == 1 else outputs
        return outputs + states + states

    def get_config(self):
        return {
            **super().get_config(),
            "merge_mode": self.merge_mode,
            "layer": serialization.serialize_keras_object(self.forward_layer),
            "backward_layer": serialization.serialize_keras_object(self.backward_layer),
        }

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        layer = serialization.deserialize_keras_object(config["layer"], custom_objects)
        layer.name = layer.name.removeprefix("forward_")  # the copy adds the prefix back
        config["layer"] = layer
        if config.get("backward_layer") is not None:
            config["backward_layer"] = serialization.deserialize_keras_object(
                config["backward_layer"], custom_objects
            )
        return super().from_config(config)
