"""The example in docs/python.md runs."""

import pathlib
import runpy


def test_quickstart_example_runs(capsys):
    runpy.run_path(str(pathlib.Path(__file__).parents[1] / "examples" / "quickstart.py"))
    out = capsys.readouterr().out
    assert "returns" in out and "ai:expert plays" in out and "epoch 2" in out
