"""`python -m trainer train ...` is `ringflow train ...`."""
import sys

from .cli import main

sys.exit(main())
