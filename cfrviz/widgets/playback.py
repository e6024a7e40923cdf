"""A ``Play`` button that keeps playing when it is shown more than once (issue 19).

ipywidgets 8's ``Play`` runs its timer from each *view*: every view listens for a change of
``playing`` and starts or pauses the model's timer, deciding which from Backbone's
``previous("playing")``.  ipywidgets' own ``set`` (its ``backbone-patch``) resets
``_changing`` in a ``finally`` even when the ``set`` was nested, so the first view's step (a
nested ``set`` of ``value`` and a save) makes the second view read ``previous("playing")`` as
``true`` and call ``pause()``: with two views of one ``Play`` (a second display in a lesson,
JupyterLab's "New View for Output") pressing Play moves one step and stops.

This :class:`Play` is the same widget in the kernel (a subclass of ``ipywidgets.Play``: the
same traits, ``jslink`` to a slider as before), drawn by a small anywidget front end whose
timer belongs to the *model*, started once in ``initialize`` and driven by ``playing`` alone;
each view only draws the buttons and sets ``playing``.  Any number of views play together.
Like every anywidget of cfrviz it works however late its front end starts
(:mod:`cfrviz.widgets.late_start`).
"""

from __future__ import annotations

from importlib import resources

import anywidget
import ipywidgets as W

from .late_start import StartsLate

#: The front end, ``playback.js`` beside this module (package data; tests/js/playback.test.js):
#: one timer per model (``initialize``), any number of views (``render``).
FRONT_END = (resources.files("cfrviz.widgets") / "playback.js").read_text(encoding="utf-8")


class Play(StartsLate, anywidget.AnyWidget, W.Play):
    """``ipywidgets.Play`` with a front end that plays however many times it is displayed.

    The same traits and defaults as ``ipywidgets.Play`` (``value``, ``min``, ``max``,
    ``step``, ``interval``, ``playing``, ``repeat``, ``show_repeat``, ``disabled``); link its
    ``value`` to a slider with ``ipywidgets.jslink`` as usual.  See the module's docstring for
    what goes wrong with ipywidgets' own when a second view exists.
    """

    _esm = FRONT_END
