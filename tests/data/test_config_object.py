"""`Config`: attribute and item access, freezing, JSON export, dict-like reading."""

import copy
import json
import pickle

import pytest

from tripod.data.config_object import Config


def test_values_by_keyword_attribute_and_item():
    config = Config(learning_rate=0.1, momentum=0.9)
    config.use_ema = True
    config["seed"] = 123
    assert config.learning_rate == 0.1 and config["momentum"] == 0.9
    assert config["use_ema"] is True and config.seed == 123
    assert len(config) == 4 and "seed" in config and "nope" not in config
    assert config.get("nope") is None and config.get("nope", 5) == 5


def test_reads_like_a_sorted_dict():
    config = Config(b=2, a=1, c=3)
    assert list(config) == ["a", "b", "c"]
    assert dict(config.items()) == {"a": 1, "b": 2, "c": 3}
    assert sorted(config.keys()) == ["a", "b", "c"] and sorted(config.values()) == [1, 2, 3]
    assert repr(config) == "<Config {'b': 2, 'a': 1, 'c': 3}>"


def test_as_dict_is_a_copy_and_to_json_round_trips():
    config = Config(optimizer="adam", layers=[1, 2])
    exported = config.as_dict()
    exported["optimizer"] = "sgd"
    assert config.optimizer == "adam"
    assert json.loads(config.to_json()) == {"optimizer": "adam", "layers": [1, 2]}


def test_pop_update_and_delete():
    config = Config(a=1, b=2)
    assert config.pop("a") == 1 and config.pop("zz", 7) == 7
    config.update({"c": 3}, d=4)
    del config["b"]
    del config.c
    assert config.as_dict() == {"d": 4}


def test_frozen_config_refuses_every_change():
    config = Config(a=1)
    config.freeze()
    assert config.frozen
    changes = [
        lambda: setattr(config, "b", 2),
        lambda: config.__setitem__("a", 5),
        lambda: config.__delitem__("a"),
        lambda: config.pop("a"),
        lambda: config.update(a=3),
    ]
    for change in changes:
        with pytest.raises(ValueError, match="frozen"):
            change()
    assert config.as_dict() == {"a": 1}
    config.unfreeze()
    config.b = 2
    assert not config.frozen and config.b == 2


def test_unknown_attribute_suggests_a_close_name():
    config = Config(learning_rate=0.1)
    with pytest.raises(AttributeError, match="Did you mean 'learning_rate'"):
        _ = config.learning_rat
    with pytest.raises(KeyError):
        config["missing"]


def test_method_names_cannot_be_shadowed_by_attribute():
    config = Config()
    with pytest.raises(AttributeError, match=r"config\['keys'\]"):
        config.keys = 3
    config["keys"] = 3
    assert config["keys"] == 3 and callable(config.keys)


def test_copies_and_pickles():
    config = Config(a=[1, 2])
    config.freeze()
    for clone in (copy.deepcopy(config), pickle.loads(pickle.dumps(config))):
        assert clone.as_dict() == {"a": [1, 2]} and clone.frozen
