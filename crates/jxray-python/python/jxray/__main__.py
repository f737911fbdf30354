"""``python -m jxray …``: the jxray command line, as the ``jxray`` command runs it."""

from jxray._cli import main

main()
