"""`ringflow train`'s data sets: the --dataset specs, the IDX and npz readers, and the checks on what they load."""
