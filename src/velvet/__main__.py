"""``python -m velvet``: the same command line as ``velvet``."""

from velvet.cli import main

if __name__ == "__main__":
    main(prog_name="velvet")
