"""`python -m referee_client.play`: play a match from the terminal."""

import sys

from referee_client.play.cli import main

sys.exit(main())
