"""`tripod.wrappers` where scikit-learn is not installed: the namespace imports, as Keras's does,
and making an estimator names the extra to install. One subprocess (under a second), on numpy's run
alone: the path is the same on every backend."""

import pytest

from tests.saving.helpers import run_python
from tripod.backends import config

if config.backend() != "numpy":
    pytest.skip("backend-independent: runs once, in the numpy run", allow_module_level=True)

_WITHOUT = """
import sys

class HideScikitLearn:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == "sklearn":
            raise ImportError("hidden by the test")

sys.meta_path.insert(0, HideScikitLearn())
import tripod

estimators = tripod.wrappers
try:
    estimators.SKLearnRegressor(lambda X, y: None)
except ImportError as error:
    print(error)
"""


def test_without_scikit_learn_an_estimator_names_the_extra():
    said = run_python(_WITHOUT, "numpy").strip().splitlines()[-1]
    assert "tripod.wrappers.SKLearnRegressor needs the optional package" in said
    assert "pip install 'tripod[sklearn]'" in said
