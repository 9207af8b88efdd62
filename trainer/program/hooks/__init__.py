"""The hooks of `ringflow train`, one per duty, on the public SessionRunHook API."""
