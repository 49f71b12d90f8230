"""Image ops (channels_last unless data_format says otherwise)."""

# ruff: noqa: A001, A002


def affine_transform(images, transform, interpolation='bilinear', fill_mode='constant', fill_value=0, data_format=None):
    """DOC"""


def crop_images(images, top_cropping=None, left_cropping=None, bottom_cropping=None, right_cropping=None, target_height=None, target_width=None, data_format=None):
    """DOC"""


def elastic_transform(images, alpha=20.0, sigma=5.0, interpolation='bilinear', fill_mode='reflect', fill_value=0.0, seed=None, data_format=None):
    """DOC"""


def extract_patches(images, size, strides=None, dilation_rate=1, padding='valid', data_format=None):
    """DOC"""


def extract_patches_3d(volumes, size, strides=None, dilation_rate=1, padding='valid', data_format=None):
    """DOC"""


def gaussian_blur(images, kernel_size=(3, 3), sigma=(1.0, 1.0), data_format=None):
    """DOC"""


def hsv_to_rgb(images, data_format=None):
    """DOC"""


def map_coordinates(inputs, coordinates, order, fill_mode='constant', fill_value=0):
    """DOC"""


def pad_images(images, top_padding=None, left_padding=None, bottom_padding=None, right_padding=None, target_height=None, target_width=None, data_format=None):
    """DOC"""


def perspective_transform(images, start_points, end_points, interpolation='bilinear', fill_value=0, data_format=None):
    """DOC"""


def resize(images, size, interpolation='bilinear', antialias=False, crop_to_aspect_ratio=False, pad_to_aspect_ratio=False, fill_mode='constant', fill_value=0.0, data_format=None):
    """DOC"""


def rgb_to_grayscale(images, data_format=None):
    """DOC"""


def rgb_to_hsv(images, data_format=None):
    """DOC"""


def scale_and_translate(images, output_shape, scale, translation, spatial_dims, method, antialias=True):
    """DOC"""


def sobel_edges(images, data_format=None):
    """DOC"""


def ssim(image1, image2, max_val=1.0, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03, data_format=None):
    """DOC"""
