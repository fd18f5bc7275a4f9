"""A user's files and what a user types: every loader reads through one defensive reader,
every output file is written by one writer, every name and number goes through one check.

- :mod:`~turnkeeper.files.reading`: reading and parsing a user's files (size, UTF-8, TOML and
  JSON nesting and numbers), each refusal one line naming the file;
- :mod:`~turnkeeper.files.writing`: writing a user's output files safely, and refusing an
  output before the work that fills it;
- :mod:`~turnkeeper.files.names`: names, whole numbers and seeds a user gives;
- :mod:`~turnkeeper.files.keys`: what to say of a key a file's schema refuses;
- :mod:`~turnkeeper.files.paths`: how an error shows a path, and paths the system refuses.

The public names are here as well as in their modules.
"""

from turnkeeper.files.keys import keys_at, unknown_key
from turnkeeper.files.names import (
    MAX_INT,
    MAX_NAME_LENGTH,
    MAX_TEXT_LENGTH,
    check_name,
    check_number,
    check_seed,
    digits,
    unprintable,
)
from turnkeeper.files.paths import check_path_length, real_path
from turnkeeper.files.reading import (
    MAX_DEPTH,
    MAX_FILE_BYTES,
    MAX_JOURNAL_BYTES,
    MAX_PARTY_BYTES,
    check_numbers,
    decode,
    parse_json,
    parse_toml,
    read_bytes,
    read_text,
)
from turnkeeper.files.writing import check_output, check_writable, write_bytes, write_text

__all__ = [
    "MAX_DEPTH",
    "MAX_FILE_BYTES",
    "MAX_INT",
    "MAX_JOURNAL_BYTES",
    "MAX_NAME_LENGTH",
    "MAX_PARTY_BYTES",
    "MAX_TEXT_LENGTH",
    "check_name",
    "check_number",
    "check_numbers",
    "check_output",
    "check_path_length",
    "check_seed",
    "check_writable",
    "decode",
    "digits",
    "keys_at",
    "parse_json",
    "parse_toml",
    "read_bytes",
    "read_text",
    "real_path",
    "unknown_key",
    "unprintable",
    "write_bytes",
    "write_text",
]
