"""`python -m trainer train ...` is `ringflow train ...`."""
import sys

from .program.cli import main

sys.exit(main())
