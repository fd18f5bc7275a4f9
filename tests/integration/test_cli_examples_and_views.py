"""CLI: ``turnkeeper examples`` (the shipped example files, copied into a folder) and
``map show --known`` / ``--party``, which draw the players' view and never the referee's
secrets (issue 25)."""

from __future__ import annotations

import json
from importlib.resources import files as package_files
from pathlib import Path

import pytest
from typer.testing import CliRunner

import turnkeeper.cli  # noqa: F401  (registers the verbs)
from turnkeeper.cli.app import app
from turnkeeper.files.reading import EXAMPLES

runner = CliRunner()

VALE = """\
name = "The Vale"
width = 3
height = 2
terrain = ["pHF", "fhw"]

[[hexes]]
at = "0101"

[[hexes.features]]
id = "tower"
name = "Leaning Tower"
text = "A crooked tower of grey stone."
notes = "A lich sleeps in the cellar."

[[hexes.features]]
id = "crypt"
name = "Crypt of Ash"
visibility = "secret"

[[hexes]]
at = "0200"

[[hexes.features]]
id = "barrow"
name = "Sunken Barrow"
notes = "The barrow-wight wakes at dusk."
"""


def _run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


def test_examples_copies_the_shipped_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out = _run("examples", "--json")
    assert code == 0, out
    assert json.loads(out)["folder"] == "examples"
    shipped = package_files("turnkeeper.examples")
    for name in EXAMPLES:
        copied = tmp_path / "examples" / name
        assert copied.read_text(encoding="utf-8") == (shipped / name).read_text(encoding="utf-8")


def test_examples_into_a_folder_refuses_to_overwrite_without_force(tmp_path: Path) -> None:
    folder = tmp_path / "deep" / "ex"
    assert _run("examples", str(folder))[0] == 0
    (folder / "party.toml").write_text("# mine\n", encoding="utf-8")
    with pytest.raises(Exception, match=r"party.toml: already exists; give --force"):
        _run("examples", str(folder))
    assert (folder / "party.toml").read_text(encoding="utf-8") == "# mine\n"
    assert _run("examples", str(folder), "--force")[0] == 0
    assert "[[characters]]" in (folder / "party.toml").read_text(encoding="utf-8")


def test_examples_again_in_one_folder_keeps_the_files_as_shipped(tmp_path: Path) -> None:
    """The README and a doc followed in one folder each copy the examples (issue 42): the
    second copy finds them as shipped, changes nothing and is no error."""
    folder = tmp_path / "ex"
    assert _run("examples", str(folder))[0] == 0
    (folder / "foes.toml").unlink()
    code, out = _run("examples", str(folder), "--json")
    assert code == 0, out
    said = json.loads(out)
    assert said["files"] == [str(folder / "foes.toml")]
    assert len(said["already"]) == len(EXAMPLES) - 1
    code, out = _run("examples", str(folder))
    assert code == 0, out
    assert f"The example files are in {folder} already, as shipped" in " ".join(out.split())


def test_a_missing_example_file_points_at_the_examples_verb(tmp_path: Path) -> None:
    with pytest.raises(Exception, match=r"`turnkeeper examples .*` copies the example files"):
        _run(
            "simulate", "fight", "--party", str(tmp_path / "examples" / "fighters.toml"),
            "--foes", str(tmp_path / "examples" / "foes.toml"),
        )  # fmt: skip


@pytest.fixture
def vale(tmp_path: Path) -> Path:
    path = tmp_path / "vale.toml"
    path.write_text(VALE, encoding="utf-8")
    return path


def test_known_draws_the_players_view_without_secrets(tmp_path: Path, vale: Path) -> None:
    known = tmp_path / "known.json"
    known.write_text(
        json.dumps({"party_at": "0101", "known": ["0101", "0100"], "found_features": ["tower"]}),
        encoding="utf-8",
    )
    out = tmp_path / "p.svg"
    code, said = _run("map", "show", "--map", str(vale), "--out", str(out), "--known", str(known))
    assert code == 0 and "(player view)" in said
    svg = out.read_text(encoding="utf-8")
    assert "<title>The Vale (the party’s map)</title>" in svg
    assert "Leaning Tower" in svg  # found: on the players' map
    for secret in ("lich", "Crypt of Ash", "Sunken Barrow", "barrow-wight", "Referee"):
        assert secret not in svg


def test_party_alone_draws_the_players_view(tmp_path: Path, vale: Path) -> None:
    out = tmp_path / "p.svg"
    code, out_json = _run(
        "map", "show", "--map", str(vale), "--out", str(out), "--party", "0101", "--json"
    )
    assert code == 0 and json.loads(out_json)["player"] is True
    svg = out.read_text(encoding="utf-8")
    assert "(the party’s map)" in svg and "lich" not in svg and "Crypt of Ash" not in svg


def test_the_referees_drawing_says_so(tmp_path: Path, vale: Path) -> None:
    out = tmp_path / "r.svg"
    code, said = _run("map", "show", "--map", str(vale), "--out", str(out))
    assert code == 0 and "(referee view)" in said
    svg = out.read_text(encoding="utf-8")
    assert "<title>The Vale (the referee’s map)</title>" in svg and "lich" in svg
