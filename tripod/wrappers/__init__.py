"""`tripod.wrappers`: tripod models as scikit-learn estimators, for pipelines, grid searches and
cross-validation (Keras 3's `keras.wrappers`)."""

from tripod.wrappers.sklearn import SKLearnClassifier, SKLearnRegressor, SKLearnTransformer

__all__ = ["SKLearnClassifier", "SKLearnRegressor", "SKLearnTransformer"]
