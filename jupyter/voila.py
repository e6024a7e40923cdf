"""make present's Voila setting that JSON cannot hold (a function); the others are in voila.json.

Voila reads both files: the Makefile names this folder in ``--Voila.config_file_paths``.
"""

from cfrviz.jupyter_hooks import set_xsrf_cookie

c = get_config()  # noqa: F821  (traitlets defines get_config in a config file's namespace)

# So that a dashboard's kernel shuts down when its page goes: see set_xsrf_cookie.
c.VoilaConfiguration.prelaunch_hook = set_xsrf_cookie
