"""``python -m turnkeeper``: the same as the ``turnkeeper`` command."""

from turnkeeper.cli import main

if __name__ == "__main__":
    main()
