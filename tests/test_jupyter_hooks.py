"""The pre-save hook make lab gives JupyterLab: widget outputs become a notice, nothing else
changes (the browser test, tests/test_browser_breakages.py, saves and reopens a notebook)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import nbformat

from cfrviz.jupyter_hooks import NOTICE, WIDGET_STATE, WIDGET_VIEW, forget_widget_views

CONFIG = Path(__file__).resolve().parent.parent / "jupyter" / "jupyter_lab_config.json"


def _notebook() -> dict:
    nb = nbformat.v4.new_notebook()
    widget = {WIDGET_VIEW: {"model_id": "abc", "version_major": 2, "version_minor": 0},
              "text/plain": "TrainingExplorer(...)"}
    nb.cells = [
        nbformat.v4.new_code_cell("w", outputs=[
            nbformat.v4.new_output("execute_result", data=widget, execution_count=3)]),
        nbformat.v4.new_code_cell("print(1); display(w)", outputs=[
            nbformat.v4.new_output("stream", name="stdout", text="1\n"),
            nbformat.v4.new_output("display_data", data=widget)]),
        nbformat.v4.new_code_cell("fig.show()", outputs=[
            nbformat.v4.new_output("display_data", data={"text/html": "<div>plot</div>"})]),
        nbformat.v4.new_markdown_cell("text"),
    ]
    nb.metadata["widgets"] = {WIDGET_STATE: {"state": {"abc": {}}, "version_major": 2}}
    return json.loads(nbformat.writes(nb))


def test_widget_outputs_become_the_notice_and_nothing_else_changes():
    content = _notebook()
    before = copy.deepcopy(content)
    forget_widget_views({"type": "notebook", "content": content}, path="x.ipynb")
    first, second, third, fourth = content["cells"]
    # Markdown first: JupyterLab shows text/plain with word-break: break-all, which cut the
    # sentence's words at the end of a line (issue 29); Markdown wraps between words.
    assert first["outputs"][0]["data"] == {"text/markdown": NOTICE, "text/plain": NOTICE}
    assert first["outputs"][0]["execution_count"] == 3
    assert second["outputs"][0] == before["cells"][1]["outputs"][0]
    assert second["outputs"][1]["data"] == {"text/markdown": NOTICE, "text/plain": NOTICE}
    assert third == before["cells"][2] and fourth == before["cells"][3]
    assert "widgets" not in content["metadata"]
    nbformat.validate(nbformat.from_dict(content))


def test_other_files_pass_unchanged():
    model = {"type": "file", "content": "print(1)", "format": "text"}
    forget_widget_views(model)
    assert model == {"type": "file", "content": "print(1)", "format": "text"}


def test_make_labs_configuration_names_the_hook():
    config = json.loads(CONFIG.read_text())
    assert config["ContentsManager"]["pre_save_hook"] == "cfrviz.jupyter_hooks.forget_widget_views"
