"""`SavingMixin`: `Model.save`, `Model.save_weights` and `Model.load_weights`."""

import json

from tripod.saving import model_io, serialization


class SavingMixin:
    """The saving methods of `Model`, delegating to `tripod.saving`."""

    def save(self, filepath, overwrite=True, zipped=None, **kwargs):
        """Save the whole model (config, weights, optimizer state) as a `.keras` archive (or a
        legacy `.h5` file, with a warning)."""
        model_io.save_model(self, filepath, overwrite=overwrite, zipped=zipped, **kwargs)

    def save_weights(self, filepath, overwrite=True, max_shard_size=None):
        """Save the model's variables to `*.weights.h5` (sharded above `max_shard_size` GiB)."""
        model_io.save_weights(self, filepath, overwrite=overwrite, max_shard_size=max_shard_size)

    def load_weights(self, filepath, skip_mismatch=False, **kwargs):
        """Load variables from `*.weights.h5`, a sharded index, a `.keras` file or a legacy `.h5`."""
        model_io.load_weights(self, filepath, skip_mismatch=skip_mismatch, **kwargs)

    def to_json(self, **kwargs):
        """The model's config as a JSON string (`tripod.models.model_from_json` reads it back)."""
        return json.dumps(serialization.serialize_keras_object(self), **kwargs)
