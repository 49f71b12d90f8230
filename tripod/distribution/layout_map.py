"""`LayoutMap`: variable paths (regular expressions) to the layouts those variables take."""

import collections.abc
import re

from tripod.distribution.mesh import TensorLayout


class LayoutMap(collections.abc.MutableMapping):
    """Maps variable paths to `TensorLayout`s. A key is a regular expression searched in a
    variable's path ("dense.*kernel" matches "dense_1/kernel"); an exact path wins over patterns.
    A value may be a tuple of axes, made a `TensorLayout` on this map's mesh."""

    def __init__(self, device_mesh):
        self._device_mesh = device_mesh
        self._layouts = {}

    @property
    def device_mesh(self):
        """The mesh every layout of the map lies on."""
        return self._device_mesh

    def __setitem__(self, key, layout):
        if not isinstance(key, str):
            raise TypeError(f"LayoutMap: keys are path patterns (str), received {key!r}.")
        if key in self._layouts:
            raise ValueError(
                f"LayoutMap: the key {key!r} already has a layout: {self._layouts[key]}."
            )
        if not isinstance(layout, TensorLayout):
            if not isinstance(layout, (tuple, list)):
                raise TypeError(
                    f"LayoutMap[{key!r}]: expected a TensorLayout or a tuple of mesh axis names "
                    f"(or None), received {layout!r}."
                )
            layout = TensorLayout(layout)
        layout.device_mesh = self._device_mesh
        self._layouts[key] = layout

    def __getitem__(self, path):
        """The layout for variable path `path`, or None when no key matches it."""
        key = self.key_for(path)
        return None if key is None else self._layouts[key]

    def key_for(self, path):
        """The key whose layout `path` takes: itself if present, else the one pattern found in
        it; None for none, a clear error for several."""
        if path in self._layouts:
            return path
        found = [key for key in self._layouts if re.search(key, path)]
        if len(found) > 1:
            raise ValueError(
                f"LayoutMap: the variable path {path!r} matches several keys, {found}; make the "
                "patterns exclusive (e.g. anchor them with '^' and '$')."
            )
        return found[0] if found else None

    def __contains__(self, key):
        return key in self._layouts

    def __delitem__(self, key):
        del self._layouts[key]

    def __iter__(self):
        return iter(self._layouts)

    def __len__(self):
        return len(self._layouts)
