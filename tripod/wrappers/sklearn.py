"""scikit-learn estimators around tripod models, as Keras 3's `keras.wrappers`.

An estimator holds a compiled model, or a function that builds and compiles one from the data
(`model(X=X, y=y, **model_kwargs)`), and trains it in `fit`: a model given as an instance is
cloned first (clones keep its compile settings) unless `warm_start`, which trains one model on.
scikit-learn is optional: without it `tripod.wrappers` still imports, as in Keras, and making an
estimator raises an ImportError naming the extra that installs it.
"""

import numpy as np

from tripod.backends.common.optional import require
from tripod.training.cloning import clone_model
from tripod.training.model import Model

_FEATURE = "tripod.wrappers"


def _installed(module):
    """scikit-learn's `module`, or None where scikit-learn is not installed."""
    try:
        return require(module, "sklearn", _FEATURE)
    except ImportError:
        return None


_base = _installed("sklearn.base")
_multiclass = _installed("sklearn.utils.multiclass")


def _base_class(name):
    """scikit-learn's `sklearn.base.<name>`, or an empty class in its place where scikit-learn is
    not installed (a new one for each name, so no estimator lists one base twice)."""
    return getattr(_base, name) if _base else type(f"_No{name}", (), {})


_BaseEstimator = _base_class("BaseEstimator")
_ClassifierMixin = _base_class("ClassifierMixin")
_RegressorMixin = _base_class("RegressorMixin")
_TransformerMixin = _base_class("TransformerMixin")


class _ModelEstimator(_BaseEstimator):
    """What the three estimators share: making the model, checking the data, fitting.

    Args:
        model: a compiled `Model`, or a function returning one, called as
            `model(X=X, y=y, **model_kwargs)` with the training data (y as the model sees it).
        warm_start: train the same model on at each `fit` (an instance is then not cloned).
        model_kwargs: more keyword arguments for `model` when it is a function.
        fit_kwargs: keyword arguments for `Model.fit` (those given to `fit` take precedence).

    Attributes (after `fit`): `model_`, the trained model; `history_`, its `fit` history (a dict
    of lists); `n_features_in_`, the number of input features.
    """

    def __init__(self, model, warm_start=False, model_kwargs=None, fit_kwargs=None):
        require("sklearn.base", "sklearn", f"{_FEATURE}.{type(self).__name__}")
        self.model = model
        self.warm_start = warm_start
        self.model_kwargs = model_kwargs
        self.fit_kwargs = fit_kwargs

    def __sklearn_clone__(self):
        """A new estimator of the same parameters (`sklearn.base.clone`): the model is shared,
        not deep-copied, as `fit` clones an instance anyway (but under `warm_start`)."""
        return type(self)(**self.get_params(deep=False))

    def fit(self, X, y, **kwargs):
        """Train the model on `X` and the targets `y`; `kwargs` go to `Model.fit`."""
        X = self._features(X, reset=True)
        target = self._encode(np.asarray(y), reset=True)
        model = self._model(X, target)
        if not model.compiled or model.optimizer is None or model.loss is None:
            raise RuntimeError(
                f"{type(self).__name__}: the model must be compiled with a loss and an optimizer "
                "(compile it before passing it in, or in the function that builds it)."
            )
        options = {**(self.fit_kwargs or {}), **kwargs}
        self.history_ = model.fit(X, target, **options).history
        self.model_ = model
        return self

    @property
    def epoch_(self):
        """The number of epochs the last `fit` ran."""
        return len(next(iter(self.history_.values()), [])) if hasattr(self, "history_") else 0

    def _model(self, X, target):
        if self.warm_start and hasattr(self, "model_"):
            return self.model_
        if isinstance(self.model, Model):
            return self.model if self.warm_start else clone_model(self.model)
        return self.model(X=X, y=target, **(self.model_kwargs or {}))

    def _features(self, X, reset):
        """`X` as a 2-D float array, its feature count recorded (`reset`) or checked."""
        X = np.asarray(X, dtype="float32")
        if X.ndim != 2:
            raise ValueError(
                f"{type(self).__name__}: X must be 2-D (samples, features), received shape "
                f"{X.shape}."
            )
        if reset:
            self.n_features_in_ = X.shape[1]
        elif not hasattr(self, "model_"):
            raise _not_fitted(self)
        elif X.shape[1] != self.n_features_in_:
            raise ValueError(
                f"{type(self).__name__}: X has {X.shape[1]} features, but the estimator was "
                f"fitted with {self.n_features_in_}."
            )
        return X

    def _outputs(self, X):
        """The model's outputs for `X` (no progress bar: a pipeline predicts often)."""
        X = self._features(X, reset=False)  # raises NotFittedError before `fit`
        return np.asarray(self.model_.predict(X, verbose=0))


def _not_fitted(estimator):
    """The error scikit-learn's own estimators raise before `fit` (a ValueError)."""
    error = _installed("sklearn.exceptions").NotFittedError
    return error(f"This {type(estimator).__name__} instance is not fitted yet; call fit first.")


class SKLearnClassifier(_ClassifierMixin, _ModelEstimator):
    """A scikit-learn classifier around a tripod model.

    Labels of any kind (`classes_` lists them, sorted) are one-hot encoded for training, so the
    model ends in `len(classes_)` units (a softmax); `predict` returns the label of the largest.
    Binary and multiclass targets only. The other arguments are those of `_ModelEstimator`.

    Example:
        >>> import numpy as np, tripod
        >>> def build(X, y):
        ...     model = tripod.Sequential([tripod.Input((X.shape[1],)),
        ...                                tripod.layers.Dense(y.shape[1], activation="softmax")])
        ...     model.compile(optimizer="adam", loss="categorical_crossentropy")
        ...     return model
        >>> X = np.random.default_rng(0).normal(size=(20, 3))
        >>> labels = np.where(X[:, 0] > 0, "up", "down")
        >>> estimator = tripod.wrappers.SKLearnClassifier(build, fit_kwargs={"verbose": 0})
        >>> estimator = estimator.fit(X, labels, epochs=2)
        >>> estimator.classes_.tolist(), estimator.predict(X[:2]).shape
        (['down', 'up'], (2,))
    """

    def _encode(self, y, reset):
        if reset:
            kind = _multiclass.type_of_target(y)
            if kind not in ("binary", "multiclass"):
                raise ValueError(
                    f"SKLearnClassifier: the targets must be binary or multiclass labels, "
                    f"received {kind!r} targets."
                )
            self.classes_ = np.unique(y)
            if len(self.classes_) < 2:
                raise ValueError("SKLearnClassifier: the targets hold one class; it needs two.")
        labels = y.reshape(-1)
        return (labels[:, None] == self.classes_[None, :]).astype("float32")

    def predict(self, X):
        """The label of the class with the largest output, per sample."""
        outputs = self._outputs(X)  # before `classes_`: NotFittedError comes first
        return self.classes_[np.argmax(outputs, axis=-1)]


class SKLearnRegressor(_RegressorMixin, _ModelEstimator):
    """A scikit-learn regressor around a tripod model: targets of shape (samples,) train as
    (samples, 1) and `predict` gives them back in the shape `fit` saw. The arguments are those of
    `_ModelEstimator`."""

    def _encode(self, y, reset):
        if reset:
            self._target_rank = y.ndim
        return y.reshape(-1, 1).astype("float32") if y.ndim == 1 else y.astype("float32")

    def predict(self, X):
        """The model's outputs, in the targets' shape."""
        outputs = self._outputs(X)
        return outputs.reshape(-1) if self._target_rank == 1 else outputs


class SKLearnTransformer(_TransformerMixin, _ModelEstimator):
    """A scikit-learn transformer around a tripod model: `fit` trains it on (X, y) like the
    regressor, `transform` returns its outputs (an encoder's features, say). The arguments are
    those of `_ModelEstimator`."""

    _encode = SKLearnRegressor._encode

    def transform(self, X):
        """The model's outputs for `X`."""
        return self._outputs(X)
