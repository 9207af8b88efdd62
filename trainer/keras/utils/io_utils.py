"""keras.utils.HDF5Matrix: a dataset of an HDF5 file read like a numpy array (rows start..end, each batch read
when indexed), through h5py as Keras reads it; fit takes it as an array."""
import collections

import numpy as np

from ..engine.hdf5_format import h5py_or_none


class HDF5Matrix:
    """Rows start..end of `dataset` in the HDF5 file `datapath`, `normalizer` applied to what is read. Files stay
    open, shared by the matrices reading them, as Keras keeps them."""

    refs = collections.defaultdict(int)  # datapath -> the open h5py.File (Keras' class attribute)

    def __init__(self, datapath, dataset, start=0, end=None, normalizer=None):
        h5py = h5py_or_none()
        if h5py is None:
            raise ImportError("The use of HDF5Matrix requires HDF5 and h5py installed.")
        if datapath not in self.refs:
            self.refs[datapath] = h5py.File(datapath, "r")
        self.data = self.refs[datapath][dataset]
        self.start, self.end = start, self.data.shape[0] if end is None else end
        self.normalizer = normalizer

    def __len__(self):
        return self.end - self.start

    def __getitem__(self, key):
        if isinstance(key, slice):
            start, stop = key.start or 0, self.shape[0] if key.stop is None else key.stop
            if stop + self.start > self.end:
                raise IndexError(f"rows {start}:{stop} past the matrix's {len(self)} rows")
            index = slice(start + self.start, stop + self.start)
        elif isinstance(key, (int, np.integer)):
            if key + self.start >= self.end:
                raise IndexError(f"row {key} past the matrix's {len(self)} rows")
            index = key + self.start
        else:
            key = np.asarray(key)
            if np.max(key) + self.start >= self.end:
                raise IndexError(f"row {np.max(key)} past the matrix's {len(self)} rows")
            index = (self.start + key).tolist()
        rows = self.data[index]
        return self.normalizer(rows) if self.normalizer is not None else rows

    def __array__(self, dtype=None, copy=None):
        rows = self[0:len(self)]
        return np.asarray(rows, dtype=dtype)

    @property
    def shape(self):
        return (self.end - self.start,) + tuple(self.data.shape[1:])

    @property
    def dtype(self):
        return self.data.dtype

    @property
    def ndim(self):
        return self.data.ndim

    @property
    def size(self):
        return int(np.prod(self.shape))
