"""`Config`: a dict of named values that also reads and writes them as attributes, can be frozen
against later changes, and serializes to JSON (`keras.utils.Config`)."""

import copy
import difflib
import json


class Config:
    """Named values set by keyword, attribute (`config.lr = 0.1`) or item (`config["lr"]`);
    `freeze()` makes every later change an error; `to_json()` / `as_dict()` export them."""

    def __init__(self, **kwargs):
        object.__setattr__(self, "_config", dict(kwargs))
        object.__setattr__(self, "_frozen", False)

    @property
    def frozen(self):
        """Whether the config refuses changes."""
        return self._frozen

    def freeze(self):
        """Refuse every later change (setting, deleting, `pop`, `update`) with a ValueError."""
        object.__setattr__(self, "_frozen", True)

    def unfreeze(self):
        """Allow changes again."""
        object.__setattr__(self, "_frozen", False)

    def _check_not_frozen(self):
        if self._frozen:
            raise ValueError("Cannot change a frozen Config; call `unfreeze()` first.")

    def as_dict(self):
        """A shallow copy of the values as a plain dict."""
        return copy.copy(self._config)

    def to_json(self):
        """The values as a JSON string."""
        return json.dumps(self._config)

    def keys(self):
        """The names, like `dict.keys()`."""
        return self._config.keys()

    def values(self):
        """The values, like `dict.values()`."""
        return self._config.values()

    def items(self):
        """The (name, value) pairs, like `dict.items()`."""
        return self._config.items()

    def get(self, keyname, value=None):
        """The value of `keyname`, or `value` when there is none."""
        return self._config.get(keyname, value)

    def pop(self, *args):
        """Remove and return a value, like `dict.pop`."""
        self._check_not_frozen()
        return self._config.pop(*args)

    def update(self, *args, **kwargs):
        """Set several values, like `dict.update`."""
        self._check_not_frozen()
        self._config.update(*args, **kwargs)

    def __getattr__(self, name):
        config = self.__dict__.get("_config", {})
        if name in config:
            return config[name]
        message = f"Unknown attribute: '{name}'."
        close = difflib.get_close_matches(name, list(config), n=1, cutoff=0.7)
        if close:
            message += f" Did you mean '{close[0]}'?"
        raise AttributeError(message)

    def __setattr__(self, name, value):
        if hasattr(type(self), name):
            raise AttributeError(
                f"'{name}' is a Config method or property; set the value with "
                f"config[{name!r}] = ... instead."
            )
        self[name] = value

    def __delattr__(self, name):
        if name not in self._config:
            raise AttributeError(f"Unknown attribute: '{name}'.")
        del self[name]

    def __setitem__(self, key, value):
        self._check_not_frozen()
        self._config[key] = value

    def __getitem__(self, key):
        return self._config[key]

    def __delitem__(self, key):
        self._check_not_frozen()
        del self._config[key]

    def __contains__(self, key):
        return key in self._config

    def __iter__(self):
        return iter(sorted(self._config))

    def __len__(self):
        return len(self._config)

    def __repr__(self):
        return f"<Config {self._config}>"
