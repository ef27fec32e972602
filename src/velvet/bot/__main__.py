"""``python -m velvet.bot play URL --agent module:Class``: the same as ``velvet bot play``."""

import sys

from velvet.cli import main

if __name__ == "__main__":
    main(["bot", *sys.argv[1:]], prog_name="python -m velvet.bot")
