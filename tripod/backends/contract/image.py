"""Image ops (channels_last unless data_format says otherwise)."""


def affine_transform(
    images,
    transform,
    interpolation="bilinear",
    fill_mode="constant",
    fill_value=0,
    data_format=None,
):
    """`images` resampled through per-image 3x3 affine transforms given as 8 numbers."""


def crop_images(
    images,
    top_cropping=None,
    left_cropping=None,
    bottom_cropping=None,
    right_cropping=None,
    target_height=None,
    target_width=None,
    data_format=None,
):
    """`images` cropped to a box given by offsets and/or a target height and width."""


def elastic_transform(
    images,
    alpha=20.0,
    sigma=5.0,
    interpolation="bilinear",
    fill_mode="reflect",
    fill_value=0.0,
    seed=None,
    data_format=None,
):
    """`images` warped by a random smooth displacement field (strength alpha, smoothness sigma)."""


def extract_patches(images, size, strides=None, dilation_rate=1, padding="valid", data_format=None):
    """Patches of `size` from 2-D `images`, flattened into the channel axis."""


def extract_patches_3d(
    volumes, size, strides=None, dilation_rate=1, padding="valid", data_format=None
):
    """Patches of `size` from 3-D `volumes`, flattened into the channel axis."""


def gaussian_blur(images, kernel_size=(3, 3), sigma=(1.0, 1.0), data_format=None):
    """`images` convolved per channel with a Gaussian of `kernel_size` and `sigma`."""


def hsv_to_rgb(images, data_format=None):
    """HSV `images` (all channels in [0, 1]) converted to RGB."""


def map_coordinates(inputs, coordinates, order, fill_mode="constant", fill_value=0):
    """`inputs` interpolated (spline `order` 0 or 1) at the given `coordinates`."""


def pad_images(
    images,
    top_padding=None,
    left_padding=None,
    bottom_padding=None,
    right_padding=None,
    target_height=None,
    target_width=None,
    data_format=None,
):
    """`images` zero-padded on each side, to offsets and/or a target height and width."""


def perspective_transform(
    images, start_points, end_points, interpolation="bilinear", fill_value=0, data_format=None
):
    """`images` warped by the projective map sending `start_points` to `end_points`."""


def resize(
    images,
    size,
    interpolation="bilinear",
    antialias=False,
    crop_to_aspect_ratio=False,
    pad_to_aspect_ratio=False,
    fill_mode="constant",
    fill_value=0.0,
    data_format=None,
):
    """`images` resized to `size` (height, width) with the chosen interpolation."""


def rgb_to_grayscale(images, data_format=None):
    """RGB `images` reduced to one luminance channel."""


def rgb_to_hsv(images, data_format=None):
    """RGB `images` (values in [0, 1]) converted to HSV with channels in [0, 1]."""


def scale_and_translate(
    images, output_shape, scale, translation, spatial_dims, method, antialias=True
):
    """`images` resampled with a per-dim `scale` and `translation` into `output_shape`."""


def sobel_edges(images, data_format=None):
    """The vertical and horizontal Sobel gradients of each channel of `images`."""


def ssim(
    image1,
    image2,
    max_val=1.0,
    filter_size=11,
    filter_sigma=1.5,
    k1=0.01,
    k2=0.03,
    data_format=None,
):
    """The structural similarity index between `image1` and `image2`, per image."""
