// @ts-check
// Prints the tables cfrviz/widgets/overlay.js exports, as JSON, for the Python test that
// compares them with overlay.py's (tests/test_widgets_overlay.py): the kinds of mark, the
// marker symbols and the plotly dashes it draws.  Run: node tests/js/overlay_tables.js
import { KINDS, SYMBOLS, dashArray } from "../../cfrviz/widgets/overlay.js";

const DASHES = ["solid", "dot", "dash", "longdash", "dashdot", "longdashdot"];
console.log(JSON.stringify({
  kinds: Object.keys(KINDS),
  symbols: Object.keys(SYMBOLS),
  dashes: DASHES.filter((d) => d === "solid" || dashArray(d, 1) !== ""),
}));
