"""`tripod.preprocessing.image`: the legacy image helpers (as in `tripod.utils`, with
`smart_resize`)."""

from tripod.data.image_utils import array_to_img, img_to_array, load_img, save_img, smart_resize

__all__ = ["array_to_img", "img_to_array", "load_img", "save_img", "smart_resize"]
