"""The client: Session, the Plan it caches and runs, feeds and fetches, buffer reuse, devices and ConfigProto."""
