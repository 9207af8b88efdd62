"""Data parallelism on tg.* and allreduce: DistributedOptimizer with its buckets, overlap and non-finite policy,
broadcast_variables, and ps/, the parameter-server cluster behind tg.train.Server."""
