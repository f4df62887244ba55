"""`python -m hela_desktop.cli` runs the same command line as `hela-desktop`."""
import sys

from . import main

sys.exit(main())
