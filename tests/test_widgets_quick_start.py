"""cfrviz.widgets._quick_start: plotly's widget base without rfc3987_syntax's 38 grammars
(issue 31 item 8: most of a student's CPU seconds to lesson 04's first result on a hub)."""

from __future__ import annotations

import subprocess
import sys

#: Run in a fresh interpreter: what a student's kernel imports first.
CODE = """
import sys
import cfrviz.widgets
assert "plotly.basewidget" in sys.modules, "plotly's widget base is not imported"
assert "jsonschema" in sys.modules, "plotly no longer imports jsonschema: _quick_start can go"
assert "rfc3987_syntax" not in sys.modules and "lark" not in sys.modules, "grammars were built"
import jsonschema
jsonschema.validate({"n": 1}, {"type": "object", "properties": {"n": {"type": "integer"}}})
import rfc3987_syntax  # hidden for one import only
print("ok")
"""


def test_the_widgets_import_plotly_without_building_iri_grammars():
    done = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]
