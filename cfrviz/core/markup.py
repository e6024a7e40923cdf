"""Text from a game, made safe to put into markup: the one escaping rule of cfrviz.

A game file is shared between people, so its information-set keys, action and
chance-outcome labels, name, description and node histories are text written by
someone else.  Wherever such text is pasted into markup it goes through
:func:`escape` first:

- the HTML of ``ipywidgets.HTML`` values and of ``_repr_html_`` (the browser
  runs any ``<script>`` or ``onerror=`` it finds there), and
- plotly's text properties (``text``, ``hovertext``, ``hovertemplate``, trace
  names, titles, annotations, category tick labels), which plotly.js reads as a
  subset of HTML (``<b>``, ``<a href=...>``, ``<br>``).

Plotly also reads two kinds of *template* in text: ``%{...}`` (``hovertemplate``,
``texttemplate``, trace names, titles and annotations substitute trace data and
``meta`` there, unescaped) and a whole string between ``$`` signs (typeset by
MathJax, whose ``\\href`` makes a link).  :func:`escape` therefore also turns
``%`` and ``$`` into character references, which plotly decodes only *after*
substituting templates and looking for TeX: a game string can never start a
template or a formula, whatever it is pasted into.  The other half of the rule
is on the data side: whatever a cfrviz template reads (``customdata``, ``text``,
``hovertext``, categories, ``meta``) holds escaped text or numbers only.

Text that is only ever shown as text (dropdown labels, button descriptions,
``ValueError`` messages, ``Output`` areas) is left as it is.  Markup that
cfrviz writes itself (``<b>``, ``<br>``) is pasted around the escaped text.

This module lives in ``core``, the bottom layer, so that every layer that
writes markup (analysis, play, views, widgets) can use the same rule.
"""

from __future__ import annotations

# Quotes as numeric references: plotly.js decodes numeric references, ``&amp;``, ``&lt;``
# and ``&gt;``, but would show ``&quot;`` literally.  Escaping quotes keeps the text safe
# inside a quoted HTML attribute as well.  ``%`` and ``$`` would otherwise let the text start
# a plotly template (``%{meta}``) or a MathJax formula (``$\href{...}$``), both read before
# references are decoded.
_ENTITIES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&#34;", "'": "&#39;",
                           "%": "&#37;", "$": "&#36;"})


def escape(text: object) -> str:
    """``text`` (anything, through ``str``) with ``& < > " ' % $`` replaced by character references.

    The browser and plotly both show the result exactly as the original text:
    ``escape("<b>K&Q</b>")`` displays ``<b>K&Q</b>``, not a bold ``K&Q``.

    Examples
    --------
    >>> escape("<img src=x onerror=alert(1)>")
    '&lt;img src=x onerror=alert(1)&gt;'
    >>> escape("Q'b & \\"K\\"")
    'Q&#39;b &amp; &#34;K&#34;'
    >>> escape("%{meta} costs $5")
    '&#37;{meta} costs &#36;5'
    """
    return str(text).translate(_ENTITIES)
