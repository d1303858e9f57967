"""The console script: ``memory-review hook claude-code`` starts without the CLI (issue #16).

Claude Code runs that command line as a fresh process before every prompt; it goes to the per-prompt
path (``memory_review.lean.hook``), which imports the standard library and orjson. A ``context``
command line goes to the same path (``memory_review.lean.command``) when it can answer it. Every other
command line goes to :mod:`memory_review.cli`.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (2-3 ms of the resident client)

if TYPE_CHECKING:
    from collections.abc import Mapping
    from importlib.machinery import ModuleSpec
    from types import ModuleType

HOOK_ARGV = ["hook", "claude-code"]


INTERRUPTED = "memory-review: interrupted (nothing was half done)"


def main() -> int:
    """The console script: the command handed to the resident server when it is on (docs/adr/0060), else
    run here. Checking costs a few system calls when it is off: the folder that switches it on is absent."""
    try:
        handed = _handed_over()
    except KeyboardInterrupt:  # ctrl+c before the server had the command: nothing ran
        print(INTERRUPTED, file=sys.stderr)
        return 130
    return run() if handed is None else handed


def _handed_over() -> int | None:
    if sys.platform != "linux" or sys.argv[1:2] == ["hook"]:  # an agent's hook, before every prompt: always here
        return None
    folder = user_store_guess(os.environ)
    if folder is None or not os.path.lexists(os.path.join(folder, "resident")):
        return None  # off: ~50 µs, and nothing of the resident client loaded
    from memory_review.resident.client import hand_over

    return hand_over(sys.argv[1:])


def user_store_guess(environ: Mapping[str, str]) -> str | None:
    """The user store's real path as :func:`memory_review.paths.user_store_dir` finds it, without
    platformdirs (4 ms to import) or pathlib: ``$MEMORY_REVIEW_HOME``, else ``$XDG_CONFIG_HOME`` (when
    absolute) or ``~/.config``, then ``memory-review``; None for a path with a NUL (the command says what is
    wrong with it). Its ``resident`` folder switches the resident server on (docs/adr/0060). A wrong guess is
    harmless: the server checks the child's environment against its own folder and refuses a command for
    another store, and ``resident on`` refuses where the guess and platformdirs disagree."""
    home = environ.get("MEMORY_REVIEW_HOME")
    if not home:
        xdg = environ.get("XDG_CONFIG_HOME", "")
        home = os.path.join(xdg if os.path.isabs(xdg) else os.path.expanduser("~/.config"), "memory-review")
    if "\x00" in home:
        return None
    return os.path.realpath(os.path.expanduser(home))


def run() -> int:
    """The command, here, with ctrl+c said in one line (exit status 130, the shell's 128 + SIGINT). The
    resident server's child runs this too.

    Nothing is half done when it comes: every change is one atomic commit that survives even SIGKILL
    (docs/reliability.md). The review UI quits on SIGINT by itself (docs/adr/0055)."""
    try:
        return _command()
    except KeyboardInterrupt:
        print(INTERRUPTED, file=sys.stderr)
        return 130


def _command() -> int:
    if sys.argv[1:] == HOOK_ARGV:
        from memory_review.lean.hook import hook_streams, run_hook

        return run_hook(*hook_streams())
    if "context" in sys.argv[1:]:
        from memory_review.lean.command import run

        answered = run(sys.argv[1:])
        if answered is not None:
            return answered
    # Pydantic looks for plugins (observability hooks) in every installed package's entry points when it
    # builds its first model: a scan of site-packages per command. This program loads none; a person who
    # wants one sets the variable themselves (docs/adr/0037).
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    if os.environ["PYDANTIC_DISABLE_PLUGINS"] in ("__all__", "1", "true"):
        _no_plugin_loader()
    from memory_review.cli import main as cli_main

    return cli_main()


def _no_plugin_loader() -> None:
    """Stand in for ``pydantic.plugin._loader``, which imports ``importlib.metadata`` (and ``email``,
    ``zipfile``, ...: about a tenth of an apply's imports) only for the entry-point scan that the setting
    above turns off (docs/adr/0042). With every plugin disabled its ``get_plugins`` returns no plugin,
    and so does this one; ``_plugins`` stays None (never scanned). A finder, not a module put in
    ``sys.modules``: nothing of pydantic exists until pydantic asks. Only this program does it."""
    if "pydantic.plugin._loader" not in sys.modules and _NoPluginLoader not in sys.meta_path:
        sys.meta_path.insert(0, _NoPluginLoader)


class _NoPluginLoader:
    """The import system's finder and loader of the one module :func:`_no_plugin_loader` replaces."""

    NAME = "pydantic.plugin._loader"

    @classmethod
    def find_spec(cls, name: str, path: object = None, target: object = None) -> ModuleSpec | None:
        if name != cls.NAME:
            return None
        from importlib.machinery import ModuleSpec

        return ModuleSpec(name, cls)  # type: ignore[arg-type]  # a loader by its two methods

    @staticmethod
    def create_module(spec: ModuleSpec) -> None:
        return None  # the default module object

    @staticmethod
    def exec_module(module: ModuleType) -> None:
        module.__dict__.update(
            PYDANTIC_ENTRY_POINT_GROUP="pydantic",
            _plugins=None,
            _loading_plugins=False,
            get_plugins=lambda: (),
            __getattr__=_real_loader_attribute,
        )


def _real_loader_attribute(name: str) -> object:
    """Any other name a pydantic release asks of its loader comes from the real module, loaded then: the
    range of pydantic versions we accept must never fail to import because a private module grew a name."""
    if name.startswith("__"):  # the import system and inspect ask for __file__, __path__, ...: none here
        raise AttributeError(name)
    import importlib.machinery
    import importlib.util

    import pydantic.plugin

    spec = importlib.machinery.PathFinder.find_spec(_NoPluginLoader.NAME, list(pydantic.plugin.__path__))
    if spec is None or spec.loader is None:
        raise AttributeError(name)
    real = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(real)
    return getattr(real, name)


if __name__ == "__main__":
    sys.exit(main())
