"""A "show me" button: content that stays hidden until the student asks for it.

A lesson that walks through code which is also the answer to a later exercise puts the
listing behind this button, so that the answer is never on screen before the exercise
unless the student chooses to look.
"""

from __future__ import annotations

import ipywidgets as W

from .panel import Panel


def _html(content) -> str:
    """The content as HTML: its own ``_repr_html_`` when it has one, else escaped text."""
    from ..core.markup import escape

    render = getattr(content, "_repr_html_", None)
    if callable(render):
        return render()
    return f"<pre>{escape(str(content))}</pre>"


class ShowMe(Panel):
    """A button that shows ``content`` (anything with ``_repr_html_``, or text) and hides it again.

    Parameters
    ----------
    content
        What to reveal, e.g. a :class:`cfrviz.views.listing.Listing`.
    label : str
        The button's text while the content is hidden.
    """

    def __init__(self, content, label: str = "Show me") -> None:
        super().__init__()
        self.label = label
        self.shown = W.HTML(value="")
        self.button = W.Button(description=label, icon="eye", button_style="",
                               layout=W.Layout(width="auto"))
        self._content = _html(content)
        self.button.on_click(self.toggle)
        self.children = (self.button, self.shown, self.output)

    def toggle(self, _button=None) -> None:
        """Show the content if it is hidden, hide it if it is shown."""
        if self.shown.value:
            self.shown.value = ""
            self.button.description = self.label
            self.button.icon = "eye"
        else:
            self.shown.value = self._content
            self.button.description = "Hide"
            self.button.icon = "eye-slash"
