"""tg.version: which TF1 API ringflow implements, and ringflow's own release.

VERSION reads "1.15.0+ringflow.<release>": TF1 programs that compare tf.__version__ against 1.x see the 1.15 API
they were written for, and the local part says it is ringflow.
"""
from importlib import metadata

try:
    RINGFLOW_VERSION = metadata.version("ringflow")
except metadata.PackageNotFoundError:  # running from a source tree that was never installed
    RINGFLOW_VERSION = "0.0.0"
TF_API_VERSION = "1.15.0"
VERSION = f"{TF_API_VERSION}+ringflow.{RINGFLOW_VERSION}"
GIT_VERSION = "unknown"  # what TF1 reports for a build made outside its git tree
