"""The Typer application and the one place where errors become exit codes.

Every verb takes ``--json``; people get Rich tables and colour. A user's mistake
(:class:`~turnkeeper.errors.TurnkeeperError`) exits 2 with one line on stderr, no traceback.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape

from turnkeeper.errors import TurnkeeperError

app = typer.Typer(
    name="turnkeeper",
    help="The referee's engine for old-school turn-based play.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def root() -> None:
    """turnkeeper keeps the strict time record of an old-school campaign."""


console = Console()
err_console = Console(stderr=True)

JsonOption = typer.Option(False, "--json", help="Print machine-readable JSON instead of tables.")


def emit(data: Any, as_json: bool, render: Callable[[], None]) -> None:
    """Print ``data`` as JSON for machines, or call ``render`` to draw it for people."""
    if as_json:
        sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n")
    else:
        render()


def fail(message: str) -> None:
    """Stop with a user's mistake: one clear line on stderr and exit code 2."""
    raise TurnkeeperError(message)


def main() -> None:
    """Console-script entry point: runs the app and maps a user's mistake to exit code 2.

    Usage errors (an unknown option, a missing argument) exit 2 the same way: one line
    naming what is wrong and the verb's ``--help``, not Typer's boxed usage screen.
    """
    from typer._click.exceptions import ClickException, NoArgsIsHelpError, UsageError

    import turnkeeper.cli  # noqa: F401  (registers every verb group)

    try:
        code = app(standalone_mode=False)
    except TurnkeeperError as error:
        err_console.print(
            f"[bold red]error:[/] {escape(str(error))}", highlight=False, soft_wrap=True
        )
        sys.exit(2)
    except NoArgsIsHelpError as error:
        error.show()
        sys.exit(2)
    except ClickException as error:
        hint = ""
        if isinstance(error, UsageError) and error.ctx is not None:
            hint = f" (see `{error.ctx.command_path} --help`)"
        message = escape(f"{error.format_message()}{hint}")
        err_console.print(f"[bold red]error:[/] {message}", highlight=False, soft_wrap=True)
        sys.exit(error.exit_code)
    except typer.Abort:
        sys.exit(1)
    if isinstance(code, int) and code:
        sys.exit(code)
