"""tg.version: which TF1 API ringflow implements, and ringflow's own release.

VERSION reads "1.15.0+ringflow.<release>": TF1 programs that compare tf.__version__ against 1.x see the 1.15 API
they were written for, and the local part says it is ringflow.
"""
import platform
from importlib import metadata

try:
    RINGFLOW_VERSION = metadata.version("ringflow")
except metadata.PackageNotFoundError:  # running from a source tree that was never installed
    RINGFLOW_VERSION = "0.0.0"
TF_API_VERSION = "1.15.0"
VERSION = f"{TF_API_VERSION}+ringflow.{RINGFLOW_VERSION}"
GIT_VERSION = "unknown"  # what TF1 reports for a build made outside its git tree
# TF 1.15's GraphDef versions (core/public/version.h): the graph format ringflow reads and writes is that release's
GRAPH_DEF_VERSION = 119
GRAPH_DEF_VERSION_MIN_CONSUMER = 0
GRAPH_DEF_VERSION_MIN_PRODUCER = 0
# ringflow builds no C++: the build facts TF reports for its pip package describe the interpreter's build here,
# and the ABI flags say what TF 1.15's manylinux wheel said (no C++11 ABI, not monolithic)
COMPILER_VERSION = platform.python_compiler()
CXX11_ABI_FLAG = 0
CXX_VERSION = 201402  # C++14's __cplusplus, the standard TF 1.15 was built with
MONOLITHIC_BUILD = 0
