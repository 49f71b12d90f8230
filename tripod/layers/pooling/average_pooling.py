"""`AveragePooling1D`, `AveragePooling2D`, `AveragePooling3D`: the mean of each pooling window."""

from tripod.backends import active
from tripod.layers.pooling.base_pooling import _BasePooling

ops = active()


class AveragePooling1D(_BasePooling):
    """Average pooling over the steps of (batch, steps, channels) inputs."""

    def __init__(
        self, pool_size, strides=None, padding="valid", data_format=None, name=None, **kwargs
    ):
        super().__init__(
            1,
            ops.average_pool,
            pool_size=pool_size,
            strides=strides,
            padding=padding,
            data_format=data_format,
            name=name,
            **kwargs,
        )


class AveragePooling2D(_BasePooling):
    """Average pooling over the height and width of (batch, height, width, channels) inputs."""

    def __init__(
        self, pool_size, strides=None, padding="valid", data_format=None, name=None, **kwargs
    ):
        super().__init__(
            2,
            ops.average_pool,
            pool_size=pool_size,
            strides=strides,
            padding=padding,
            data_format=data_format,
            name=name,
            **kwargs,
        )


class AveragePooling3D(_BasePooling):
    """Average pooling over the depth, height and width of
    (batch, depth, height, width, channels) inputs."""

    def __init__(
        self, pool_size, strides=None, padding="valid", data_format=None, name=None, **kwargs
    ):
        super().__init__(
            3,
            ops.average_pool,
            pool_size=pool_size,
            strides=strides,
            padding=padding,
            data_format=data_format,
            name=name,
            **kwargs,
        )


AvgPool1D = AveragePooling1D
AvgPool2D = AveragePooling2D
AvgPool3D = AveragePooling3D
