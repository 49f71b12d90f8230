"""`SavingMixin`: `Model.save`, `Model.save_weights` and `Model.load_weights`."""

import json

from tripod.saving import model_io, serialization


class SavingMixin:
    """The saving methods of `Model`, delegating to `tripod.saving`."""

    def save(self, filepath, overwrite=True, zipped=None, **kwargs):
        """Save the whole model (config, weights, optimizer state) as a `.keras` archive.

        The file is Keras 3's format, readable by `tripod.saving.load_model` on every backend
        (and by Keras 3 itself). The write is atomic: the file appears only once complete.

        Args:
            filepath: str or path-like ending in ".keras" (a ".h5" name writes the legacy
                Keras 2 HDF5 format, with a warning).
            overwrite: bool, replace an existing file (default True).
            zipped: bool, write a zip archive (default) or, with False, a folder.
            **kwargs: `include_optimizer=False` leaves the optimizer's state out.

        Raises:
            ValueError: `filepath` names a weights file (".weights.h5"), or another suffix.
            TypeError: an unknown keyword argument.

        Examples:
            >>> model = tripod.Sequential([tripod.Input((3,)), tripod.layers.Dense(2)])
            >>> model.save("model.keras")
            >>> loaded = tripod.saving.load_model("model.keras")
            >>> x = np.ones((1, 3))
            >>> bool(np.allclose(loaded.predict(x, verbose=0), model.predict(x, verbose=0)))
            True
        """
        model_io.save_model(self, filepath, overwrite=overwrite, zipped=zipped, **kwargs)

    def save_weights(self, filepath, overwrite=True, max_shard_size=None):
        """Save the model's variables (not its config) to an HDF5 `.weights.h5` file.

        Args:
            filepath: str or path-like ending in ".weights.h5" (or ".weights.json" when sharded).
            overwrite: bool, replace an existing file (default True).
            max_shard_size: float, in GiB: split the weights over several files of at most that
                size, indexed by a ".weights.json" file; default one file.

        Examples:
            >>> model = tripod.Sequential([tripod.Input((3,)), tripod.layers.Dense(2)])
            >>> model.save_weights("dense.weights.h5")
            >>> twin = tripod.Sequential([tripod.Input((3,)), tripod.layers.Dense(2)])
            >>> twin.load_weights("dense.weights.h5")
            >>> bool(np.array_equal(twin.get_weights()[0], model.get_weights()[0]))
            True
        """
        model_io.save_weights(self, filepath, overwrite=overwrite, max_shard_size=max_shard_size)

    def load_weights(self, filepath, skip_mismatch=False, **kwargs):
        """Load the variables saved by `save_weights` (or `save`) into this built model.

        Variables are matched by the model's structure (layer by layer, in order), as Keras 3
        does, so the model must have the same architecture as the one that was saved.

        Args:
            filepath: a ".weights.h5" file, a sharded ".weights.json" index, a ".keras"
                archive or folder, or a legacy Keras 2 ".h5" file.
            skip_mismatch: bool, skip variables whose shape differs (with a warning) instead of
                raising.

        Raises:
            ValueError: an unsupported file name, or weights that do not fit the model (their
                count or shapes), named in the message.
            TypeError: an unknown keyword argument.

        Examples:
            >>> model = tripod.Sequential([tripod.Input((2,)), tripod.layers.Dense(1)])
            >>> model.save_weights("small.weights.h5")
            >>> model.set_weights([np.zeros((2, 1)), np.zeros(1)])
            >>> model.load_weights("small.weights.h5")
            >>> bool(np.any(model.get_weights()[0] != 0))
            True
        """
        model_io.load_weights(self, filepath, skip_mismatch=skip_mismatch, **kwargs)

    def to_json(self, **kwargs):
        """The model's config as a JSON string (`tripod.models.model_from_json` reads it back)."""
        return json.dumps(serialization.serialize_keras_object(self), **kwargs)
