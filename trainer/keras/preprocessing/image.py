"""tf.keras.preprocessing.image: ImageDataGenerator's normalization and random affine augmentation of
channels-last image batches, and flow(x, y) over numpy arrays as a keras Sequence (an Iterator).

The transforms are keras_preprocessing 1.1's (affine_transformations.py): rotation, shift, shear (degrees) and
zoom composed about the image centre, resampled bilinearly.
The randomness is each iterator's own numpy RandomState, seeded by flow's `seed`, so a seeded flow gives the same
batches in every run (Keras draws from numpy's global generator instead). Reading and writing image files
(flow_from_directory, DirectoryIterator, load_img, array_to_img, save_img) needs PIL, which ringflow does not use:
they fail saying so.
"""
import numpy as np

from ..utils.data_utils import Sequence
from .affine_transformations import (  # noqa: F401  (tf.keras.preprocessing.image's names)
    NEEDS_PIL, apply_affine_transform, apply_brightness_shift, apply_channel_shift, random_brightness,
    random_channel_shift, random_rotation, random_shear, random_shift, random_zoom)

STD_EPSILON = 1e-6  # keras_preprocessing's guard against dividing by a zero standard deviation


def _range(value, name):
    if np.isscalar(value):
        return [1 - value, 1 + value]
    if len(value) == 2:
        return [value[0], value[1]]
    raise ValueError(f"`{name}` should be a float or a tuple or list of two floats, got {value!r}")


class ImageDataGenerator:
    """Batches of channels-last images, normalized and randomly transformed; fit(x) computes the featurewise mean
    and std. Shifts below 1 are fractions of the image size, at least 1 pixels."""

    def __init__(self, featurewise_center=False, samplewise_center=False, featurewise_std_normalization=False,
                 samplewise_std_normalization=False, zca_whitening=False, zca_epsilon=1e-6, rotation_range=0,
                 width_shift_range=0.0, height_shift_range=0.0, brightness_range=None, shear_range=0.0,
                 zoom_range=0.0, channel_shift_range=0.0, fill_mode="nearest", cval=0.0, horizontal_flip=False,
                 vertical_flip=False, rescale=None, preprocessing_function=None, data_format="channels_last",
                 validation_split=0.0, dtype="float32"):
        unsupported = {"zca_whitening": zca_whitening, "brightness_range": brightness_range,
                       "channel_shift_range": channel_shift_range, "validation_split": validation_split}
        given = sorted(k for k, v in unsupported.items() if v)
        if given or data_format != "channels_last":
            raise ValueError(f"ImageDataGenerator({', '.join(given) or 'data_format=' + repr(data_format)}) is not "
                             "available in ringflow: it has rescale, the featurewise and samplewise normalizations, "
                             "rotation, shifts, shear, zoom and flips on channels-last images")
        self.featurewise_center, self.samplewise_center = featurewise_center, samplewise_center
        self.featurewise_std_normalization = featurewise_std_normalization
        self.samplewise_std_normalization = samplewise_std_normalization
        self.rotation_range, self.shear_range = rotation_range, shear_range
        self.width_shift_range, self.height_shift_range = width_shift_range, height_shift_range
        self.zoom_range = _range(zoom_range, "zoom_range")
        self.fill_mode, self.cval = fill_mode, cval
        self.horizontal_flip, self.vertical_flip = horizontal_flip, vertical_flip
        self.rescale, self.preprocessing_function, self.dtype = rescale, preprocessing_function, dtype
        self.mean = self.std = None

    def fit(self, x, augment=False, rounds=1, seed=None):
        """The featurewise mean and std of `x` ([N, rows, cols, channels]), per channel."""
        x = np.asarray(x, dtype=self.dtype)
        if x.ndim != 4:
            raise ValueError(f"ImageDataGenerator.fit takes a batch of images [N, rows, cols, channels], got shape "
                             f"{x.shape}")
        if augment:
            rng = np.random.RandomState(seed)
            x = np.concatenate([[self.random_transform(img, rng=rng) for img in x] for _ in range(rounds)])
        self.mean = np.mean(x, axis=(0, 1, 2)).reshape(1, 1, -1) if self.featurewise_center else None
        self.std = np.std(x, axis=(0, 1, 2)).reshape(1, 1, -1) if self.featurewise_std_normalization else None

    def standardize(self, x):
        """`x` (one image or a batch) with preprocessing_function, rescale and the normalizations applied."""
        if self.preprocessing_function is not None:
            x = self.preprocessing_function(x)
        if self.rescale:
            x = x * self.rescale
        if self.samplewise_center:
            x = x - np.mean(x, keepdims=True)
        if self.samplewise_std_normalization:
            x = x / (np.std(x, keepdims=True) + STD_EPSILON)
        for wanted, stat, name in ((self.featurewise_center, self.mean, "featurewise_center"),
                                   (self.featurewise_std_normalization, self.std, "featurewise_std_normalization")):
            if wanted and stat is None:
                raise ValueError(f"This ImageDataGenerator specifies `{name}`, but it hasn't been fit on any "
                                 "training data. Fit it first by calling `.fit(numpy_data)`.")
        if self.featurewise_center:
            x = x - self.mean
        if self.featurewise_std_normalization:
            x = x / (self.std + STD_EPSILON)
        return x

    def get_random_transform(self, img_shape, seed=None, rng=None):
        """The random parameters for one image, drawn in Keras' order from `rng` (or a RandomState(seed))."""
        rng = rng if rng is not None else np.random.RandomState(seed)
        theta = rng.uniform(-self.rotation_range, self.rotation_range) if self.rotation_range else 0
        tx = self._shift(rng, self.height_shift_range, img_shape[0])
        ty = self._shift(rng, self.width_shift_range, img_shape[1])
        shear = rng.uniform(-self.shear_range, self.shear_range) if self.shear_range else 0
        zx, zy = (1, 1) if self.zoom_range == [1, 1] else rng.uniform(self.zoom_range[0], self.zoom_range[1], 2)
        return {"theta": theta, "tx": tx, "ty": ty, "shear": shear, "zx": zx, "zy": zy,
                "flip_horizontal": bool(self.horizontal_flip and rng.random_sample() < 0.5),
                "flip_vertical": bool(self.vertical_flip and rng.random_sample() < 0.5)}

    @staticmethod
    def _shift(rng, spec, size):
        if not spec:
            return 0
        shift = rng.choice(np.asarray(spec)) if not np.isscalar(spec) else rng.uniform(-spec, spec)
        return shift * size if np.max(spec) < 1 else shift

    def apply_transform(self, x, params):
        """One image with the transform `params` (get_random_transform's) applied."""
        x = apply_affine_transform(x, params["theta"], params["tx"], params["ty"], params["shear"], params["zx"],
                                   params["zy"], fill_mode=self.fill_mode, cval=self.cval)
        if params.get("flip_horizontal"):
            x = x[:, ::-1]
        if params.get("flip_vertical"):
            x = x[::-1]
        return x

    def random_transform(self, x, seed=None, rng=None):
        """One image, randomly transformed."""
        return self.apply_transform(x, self.get_random_transform(x.shape, seed=seed, rng=rng))

    def flow(self, x, y=None, batch_size=32, shuffle=True, sample_weight=None, seed=None, save_to_dir=None,
             save_prefix="", save_format="png", subset=None):
        """A NumpyArrayIterator over (x, y) in batches, each image transformed and standardized."""
        if save_to_dir is not None:
            raise ValueError(f"flow(save_to_dir=...) {NEEDS_PIL}")
        return NumpyArrayIterator(x, y, self, batch_size, shuffle, sample_weight, seed, self.dtype)

    def flow_from_directory(self, directory, *args, **kwargs):
        raise ImportError(f"ImageDataGenerator.flow_from_directory({directory!r}) {NEEDS_PIL}")

    def flow_from_dataframe(self, dataframe, *args, **kwargs):
        raise ImportError(f"ImageDataGenerator.flow_from_dataframe {NEEDS_PIL}")


class Iterator(Sequence):
    """Keras' base of the image iterators: n samples in batches, reshuffled each epoch by the iterator's own
    RandomState; indexable (a keras Sequence) and iterable without end. Subclasses give
    _get_batches_of_transformed_samples(index_array), Keras' override point."""

    def __init__(self, n, batch_size, shuffle, seed):
        self.n, self.batch_size, self.shuffle, self.seed = n, batch_size, shuffle, seed
        self.rng = np.random.RandomState(seed)
        self.batch_index, self.index_array = 0, None
        self._set_index_array()

    def _set_index_array(self):
        self.index_array = self.rng.permutation(self.n) if self.shuffle else np.arange(self.n)

    def __len__(self):
        return (self.n + self.batch_size - 1) // self.batch_size

    def __getitem__(self, idx):
        if idx >= len(self):
            raise ValueError(f"Asked to retrieve element {idx}, but the Sequence has length {len(self)}")
        return self._get_batches_of_transformed_samples(
            self.index_array[self.batch_size * idx:self.batch_size * (idx + 1)])

    def _get_batches_of_transformed_samples(self, index_array):
        raise NotImplementedError(f"{type(self).__name__} must define _get_batches_of_transformed_samples")

    def on_epoch_end(self):
        self._set_index_array()

    def reset(self):
        self.batch_index = 0

    def __iter__(self):
        return self

    def __next__(self):
        if self.batch_index == 0 and self.shuffle:
            self._set_index_array()
        batch = self[self.batch_index]
        self.batch_index = (self.batch_index + 1) % len(self)
        return batch

    next = __next__


class NumpyArrayIterator(Iterator):
    """Batches of (transformed x, y[, sample_weight]) of numpy arrays."""

    def __init__(self, x, y, generator, batch_size=32, shuffle=False, sample_weight=None, seed=None,
                 dtype="float32"):
        self.x = np.asarray(x, dtype=dtype)
        if self.x.ndim != 4:
            raise ValueError(f"Input data in `NumpyArrayIterator` should have rank 4 ([N, rows, cols, channels]), "
                             f"got shape {self.x.shape}")
        if y is not None and len(y) != len(self.x):
            raise ValueError(f"`x` (images tensor) and `y` (labels) should have the same length. Found: "
                             f"x.shape = {self.x.shape}, y.shape = {np.asarray(y).shape}")
        self.y = None if y is None else np.asarray(y)
        self.sample_weight = None if sample_weight is None else np.asarray(sample_weight)
        self.generator = generator
        super().__init__(len(self.x), batch_size, shuffle, seed)

    def _get_batches_of_transformed_samples(self, index_array):
        batch = np.stack([self.generator.standardize(self.generator.random_transform(self.x[j], rng=self.rng))
                          for j in index_array]).astype(self.x.dtype)
        if self.y is None:
            return batch
        out = (batch, self.y[index_array])
        return out + (self.sample_weight[index_array],) if self.sample_weight is not None else out


class DirectoryIterator(Iterator):
    """Keras reads the images of a directory tree with PIL: ImportError here."""

    def __init__(self, directory, image_data_generator, *args, **kwargs):
        raise ImportError(f"DirectoryIterator({directory!r}) {NEEDS_PIL}")


def load_img(path, *args, **kwargs):
    raise ImportError(f"load_img({path!r}) {NEEDS_PIL}")


def array_to_img(x, data_format=None, scale=True, dtype=None):
    raise ImportError(f"array_to_img makes a PIL image: it {NEEDS_PIL}")


def save_img(path, x, data_format=None, file_format=None, scale=True, **kwargs):
    raise ImportError(f"save_img({path!r}) writes through PIL: it {NEEDS_PIL}")


def img_to_array(img, data_format="channels_last", dtype="float32"):
    """An image (anything numpy converts) as a float array with a channel axis."""
    x = np.asarray(img, dtype=dtype)
    return x[..., None] if x.ndim == 2 else x
