"""`MaxPooling1D`, `MaxPooling2D`, `MaxPooling3D`: the maximum of each pooling window."""

from tripod.backends import active
from tripod.layers.pooling.base_pooling import _BasePooling

ops = active()


class MaxPooling1D(_BasePooling):
    """Max pooling over the steps of (batch, steps, channels) inputs."""

    def __init__(
        self, pool_size=2, strides=None, padding="valid", data_format=None, name=None, **kwargs
    ):
        super().__init__(
            1,
            ops.max_pool,
            pool_size=pool_size,
            strides=strides,
            padding=padding,
            data_format=data_format,
            name=name,
            **kwargs,
        )


class MaxPooling2D(_BasePooling):
    """Max pooling over the height and width of (batch, height, width, channels) inputs."""

    def __init__(
        self, pool_size=(2, 2), strides=None, padding="valid", data_format=None, name=None, **kwargs
    ):
        super().__init__(
            2,
            ops.max_pool,
            pool_size=pool_size,
            strides=strides,
            padding=padding,
            data_format=data_format,
            name=name,
            **kwargs,
        )


class MaxPooling3D(_BasePooling):
    """Max pooling over the depth, height and width of
    (batch, depth, height, width, channels) inputs."""

    def __init__(
        self,
        pool_size=(2, 2, 2),
        strides=None,
        padding="valid",
        data_format=None,
        name=None,
        **kwargs,
    ):
        super().__init__(
            3,
            ops.max_pool,
            pool_size=pool_size,
            strides=strides,
            padding=padding,
            data_format=data_format,
            name=name,
            **kwargs,
        )


MaxPool1D = MaxPooling1D
MaxPool2D = MaxPooling2D
MaxPool3D = MaxPooling3D
