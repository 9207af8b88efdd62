"""What `ringflow train` writes: the output directory's lock, the paths of its files, and resuming from them."""
