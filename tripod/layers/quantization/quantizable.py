"""`Quantizable`: the LoRA and quantization methods `Dense`, `EinsumDense` and `Embedding` share.

A layer lists it before `Layer` among its bases, names its `Kind` in `_quant_kind` and calls three
hooks: `_init_quantization` in `__init__`, `_finish_build` at the end of `build`, and
`self._adapted(self, inputs, training)` in `call` when it is set (LoRA or quantization enabled) in
place of its own contraction with the weight. Saving writes Keras 3's layout: with LoRA the merged
weight (so the file loads into a plain layer); quantized, the int8 weight, bias and scale.
"""

from tripod.backends import active
from tripod.layers.quantization import config as qconfig
from tripod.layers.quantization import float8, int8, lora
from tripod.saving import serialization

ops = active()

_MODES = {"int8": int8, "float8": float8}


def _project(layer, inputs, training=None):
    """The layer's contraction with its adapted weight: quantized, or plus the LoRA update."""
    kind = layer._quant_kind
    mode = layer._dtype_policy.quantization_mode
    if mode == "int8":
        return int8.call(layer, kind, inputs)
    if mode == "float8":
        return float8.call(layer, kind, inputs, training)
    weight = getattr(layer, kind.weight).value
    return kind.project(layer, inputs, lora.merged(layer, kind, weight))


class Quantizable:
    """LoRA (`enable_lora`) and quantization (`quantize`) for a layer with one main weight."""

    #: the layer class's `Kind` (set by each quantizable class itself, not by its subclasses)
    _quant_kind = None
    #: the contraction replacing the layer's own when LoRA or quantization is on
    _adapted = None
    _is_quantized = False
    lora_enabled = False

    def _init_quantization(self, lora_rank, lora_alpha, quantization_config):
        """Validate and keep the LoRA and quantization constructor arguments."""
        if lora_rank is not None and (
            not isinstance(lora_rank, int) or isinstance(lora_rank, bool) or lora_rank <= 0
        ):
            raise ValueError(
                f"{type(self).__name__} '{self.name}': lora_rank must be a positive integer or "
                f"None, received {lora_rank!r}."
            )
        self.lora_rank = lora_rank
        self.lora_alpha = lora_rank if lora_alpha is None else lora_alpha
        if isinstance(quantization_config, dict):
            quantization_config = serialization.deserialize_keras_object(quantization_config)
        self.quantization_config = quantization_config

    def _finish_build(self, input_shape):
        """Quantize the new weight if the dtype policy says so, and enable LoRA if asked."""
        self._quant_kind.prepare(self, input_shape)
        mode = self.quantization_mode
        if mode is not None:
            self._apply_quantization(mode, self.quantization_config)
        if self.lora_rank:
            self.enable_lora(self.lora_rank, self.lora_alpha)

    def enable_lora(self, rank, lora_alpha=None, a_initializer="he_uniform", b_initializer="zeros"):
        """Freeze the weight and train a rank-`rank` update `(lora_alpha / rank) * A @ B` beside
        it (`lora_alpha` defaults to `rank`); the layer must be built, LoRA not yet enabled."""
        if self.quantization_mode == "float8":
            raise NotImplementedError(
                f"{type(self).__name__} '{self.name}': LoRA is not supported on float8 layers."
            )
        lora.enable(self, self._quant_kind, rank, lora_alpha, a_initializer, b_initializer)
        self._adapted = _project

    def quantize(self, mode=None, type_check=True, config=None):
        """Quantize the layer's weight in `mode` ("int8", or "float8" for `Dense` and
        `EinsumDense`) and switch the dtype policy to `"<mode>_from_<policy>"`."""
        if type_check and type(self).__dict__.get("_quant_kind") is None:
            raise NotImplementedError(
                f"Layer {type(self).__name__} does not have a `quantize` method implemented."
            )
        config = qconfig.resolve(mode, config)
        mode = config.mode
        self._check_quantize(mode)
        self._apply_quantization(mode, config)
        if self._dtype_policy.quantization_mode is None:
            self.dtype_policy = f"{mode}_from_{self._dtype_policy.name}"

    def _check_quantize(self, mode):
        """Raise Keras's errors for a layer that cannot be quantized in `mode` now."""
        name = f"{type(self).__name__} '{self.name}'"
        if not self.built:
            raise ValueError(f"{name}: cannot quantize a layer that is not built yet.")
        if self._is_quantized:
            raise ValueError(
                f"{name} is already quantized with dtype policy "
                f"'{self._dtype_policy.name}'; received mode={mode!r}."
            )
        if mode == "int8" and self.compute_dtype == "float16":
            raise ValueError(
                f"{name}: quantization mode 'int8' does not work well with compute dtype "
                "'float16'; use a 'mixed_bfloat16' or 'float32' policy before quantize()."
            )

    def _apply_quantization(self, mode, config):
        """Quantize the weight in `mode` and route calls through the quantized contraction."""
        if mode == "float8" and not self._quant_kind.has_bias:
            raise NotImplementedError(
                f"{type(self).__name__} '{self.name}': float8 quantization is for Dense and "
                "EinsumDense only."
            )
        if mode == "float8" and self.lora_enabled:
            raise NotImplementedError(
                f"{type(self).__name__} '{self.name}': LoRA is not supported on float8 layers."
            )
        _MODES[mode].quantize(self, self._quant_kind, config)
        self.quantization_config = config
        self._is_quantized = True
        self._adapted = _project

    def _quantization_config_entries(self):
        """The config entries of LoRA and quantization, as Keras 3 writes them."""
        entries = {
            "quantization_config": serialization.serialize_keras_object(self.quantization_config)
        }
        if self.lora_rank:
            entries.update(lora_rank=self.lora_rank, lora_alpha=self.lora_alpha)
        return entries

    # -- saving: Keras 3's variable layout ------------------------------------------------------
    def _saved_variables(self):
        """The variables a checkpoint holds, in Keras's order: weight, bias, then the mode's."""
        kind = self._quant_kind
        bias = getattr(self, "bias", None)
        saved = [getattr(self, kind.weight)] + ([bias] if bias is not None else [])
        mode = self.quantization_mode
        if mode == "int8":
            saved.append(getattr(self, kind.scale))
        elif mode == "float8":
            saved.extend(float8.state_variables(self))
        return saved

    def _checkpoint_variables(self):
        """What a checkpoint holds for this layer when LoRA or quantization changes its layout
        (`_saved_variables()`), else None: the plain layer's (or subclass's) own weights."""
        return self._saved_variables() if (self.lora_enabled or self._is_quantized) else None

    def _saved_values(self):
        """The values to save for `_saved_variables`, the LoRA update merged into the weight."""
        values = [v.value for v in self._saved_variables()]
        kind = self._quant_kind
        if self.lora_enabled and self.quantization_mode == "int8":
            values[0], values[-1] = int8.merged(self, kind)
        elif self.lora_enabled:
            values[0] = lora.merged(self, kind, values[0])
        return values

    def save_own_variables(self, store):
        """Write the weight (LoRA merged in), bias and quantization state in Keras's order."""
        if not (self.lora_enabled or self._is_quantized):
            return super().save_own_variables(store)
        for i, value in enumerate(self._saved_values()):
            store[str(i)] = ops.convert_to_numpy(value)

    def load_own_variables(self, store):
        """Read what `save_own_variables` wrote; with LoRA, the merged weight lands in the frozen
        weight and `A`, `B` restart at zero (as in Keras)."""
        if not (self.lora_enabled or self._is_quantized):
            return super().load_own_variables(store)
        targets = self._saved_variables()
        if len(store) != len(targets):
            raise ValueError(
                f"Layer '{self.name}' expects {len(targets)} variables, but the file holds "
                f"{len(store)} for it."
            )
        values = [store[str(i)] for i in range(len(targets))]
        for variable, value in zip(targets, values):
            if tuple(value.shape) != tuple(variable.shape):
                raise ValueError(
                    f"Layer '{self.name}': variable {variable.path} has shape {variable.shape}, "
                    f"but the file holds shape {tuple(value.shape)}."
                )
        for variable, value in zip(targets, values):
            variable.assign(value)
        if self.lora_enabled:
            lora.reset(self, self._quant_kind)
