"""`tripod.wrappers`: tripod models as scikit-learn estimators (fit, predict, score, clone,
pipelines), against labels and values computed by hand."""

import numpy as np
import pytest

import tripod
from tripod.backends import config

sklearn = pytest.importorskip("sklearn")
if config.backend() == "numpy":
    pytest.skip("the numpy reference does not train", allow_module_level=True)

from sklearn.base import clone
from sklearn.model_selection import cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

rng = np.random.default_rng(0)
CENTRES = np.array([[3.0, 0.0], [-3.0, 0.0], [0.0, 3.0]])
X = np.concatenate([centre + 0.3 * rng.normal(size=(20, 2)) for centre in CENTRES])
LABELS = np.repeat(np.array(["a", "b", "c"]), 20)
FIT = {"epochs": 40, "batch_size": 20, "verbose": 0}


def softmax_classifier(X, y, learning_rate=0.1):
    """A builder as a user writes one: sized by the data, compiled."""
    model = tripod.Sequential(
        [tripod.Input((X.shape[1],)), tripod.layers.Dense(y.shape[1], activation="softmax")]
    )
    model.compile(optimizer=tripod.optimizers.Adam(learning_rate), loss="categorical_crossentropy")
    return model


def test_the_classifier_learns_separable_labels_and_scores_its_accuracy():
    estimator = tripod.wrappers.SKLearnClassifier(softmax_classifier, fit_kwargs=FIT)
    assert estimator.fit(X, LABELS) is estimator
    assert estimator.classes_.tolist() == ["a", "b", "c"] and estimator.n_features_in_ == 2
    predicted = estimator.predict(X)
    assert predicted.dtype == LABELS.dtype and predicted.shape == (60,)
    accuracy = np.mean(predicted == LABELS)
    assert accuracy > 0.95
    assert estimator.score(X, LABELS) == pytest.approx(accuracy)
    assert estimator.epoch_ == 40 and len(estimator.history_["loss"]) == 40


def test_a_pipeline_cross_validates_clones_of_the_estimator():
    estimator = tripod.wrappers.SKLearnClassifier(
        softmax_classifier, model_kwargs={"learning_rate": 0.2}, fit_kwargs=FIT
    )
    copy = clone(estimator)
    assert copy is not estimator and copy.get_params() == estimator.get_params()
    pipeline = make_pipeline(StandardScaler(), estimator)
    scores = cross_val_score(pipeline, X, LABELS, cv=3)
    assert scores.shape == (3,) and scores.min() > 0.9


def test_the_regressor_gives_targets_back_in_their_shape_and_scores_r2():
    y = X @ np.array([1.5, -2.0]) + 0.5
    model = tripod.Sequential([tripod.Input((2,)), tripod.layers.Dense(1)])
    model.compile(optimizer=tripod.optimizers.Adam(0.1), loss="mse")
    estimator = tripod.wrappers.SKLearnRegressor(model, fit_kwargs={**FIT, "epochs": 150})
    estimator.fit(X, y)
    predicted = estimator.predict(X)
    assert predicted.shape == (60,)
    r2 = 1 - np.sum((y - predicted) ** 2) / np.sum((y - y.mean()) ** 2)
    assert r2 > 0.99 and estimator.score(X, y) == pytest.approx(r2, rel=1e-5)
    # the model passed in was cloned, compile settings and all: it is untrained
    assert model.compiled and not estimator.model_ is model
    assert not np.allclose(model.predict(X, verbose=0).reshape(-1), predicted)


def test_warm_start_trains_the_given_model_on():
    model = tripod.Sequential([tripod.Input((2,)), tripod.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    estimator = tripod.wrappers.SKLearnRegressor(model, warm_start=True, fit_kwargs=FIT)
    y = X[:, 0]
    first = estimator.fit(X, y, epochs=1).history_["loss"][0]
    assert estimator.model_ is model
    assert estimator.fit(X, y, epochs=1).history_["loss"][0] < first


def test_the_transformer_returns_the_models_outputs():
    model = tripod.Sequential([tripod.Input((2,)), tripod.layers.Dense(3, use_bias=False)])
    model.compile(optimizer="sgd", loss="mse")
    estimator = tripod.wrappers.SKLearnTransformer(model, fit_kwargs={**FIT, "epochs": 1})
    features = estimator.fit(X, np.zeros((60, 3))).transform(X)
    kernel = estimator.model_.layers[0].kernel.numpy()
    np.testing.assert_allclose(features, X.astype("float32") @ kernel, rtol=1e-5, atol=1e-6)


def test_bad_models_and_data_fail_clearly():
    uncompiled = tripod.Sequential([tripod.Input((2,)), tripod.layers.Dense(3)])
    with pytest.raises(RuntimeError, match="must be compiled with a loss and an optimizer"):
        tripod.wrappers.SKLearnClassifier(uncompiled).fit(X, LABELS)
    with pytest.raises(ValueError, match="binary or multiclass"):
        tripod.wrappers.SKLearnClassifier(softmax_classifier).fit(X, X[:, 0])
    estimator = tripod.wrappers.SKLearnClassifier(softmax_classifier, fit_kwargs=FIT)
    with pytest.raises(sklearn.exceptions.NotFittedError):
        estimator.predict(X)
    estimator.fit(X, LABELS, epochs=1)
    with pytest.raises(ValueError, match="X has 3 features, but the estimator was fitted with 2"):
        estimator.predict(np.ones((2, 3)))
