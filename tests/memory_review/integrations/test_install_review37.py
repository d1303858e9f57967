"""install and uninstall against what session 37's review built: settings files json refuses in other ways than a
decode error, the Gemini switch read after the write, a wrapper as --command, a stale backup, a link into the store,
a file install would grow past what uninstall reads, and OS errors that named no file."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from project_kit import Project

HOSTILE_JSON = {
    "nested past json's recursion": '{"x": ' + "[" * 1000 + "]" * 1000 + "}\n",
    "an integer of 4,301 digits": '{"x": ' + "9" * 4301 + "}\n",
}


@pytest.mark.parametrize("agent", ["claude-code", "codex", "gemini"])
@pytest.mark.parametrize("kind", list(HOSTILE_JSON))
def test_settings_json_refuses_in_any_way_is_one_line_and_nothing_changes(
    project: Project, agent: str, kind: str
) -> None:
    folder = {"claude-code": ".claude", "codex": ".codex", "gemini": ".gemini"}[agent]
    name = "hooks.json" if agent == "codex" else "settings.json"
    path = project.root / folder / name
    path.parent.mkdir()
    path.write_text(HOSTILE_JSON[kind])
    for command in ("install", "uninstall"):
        done = project.run(command, agent)
        assert done.returncode == 1 and b"Traceback" not in done.stderr, done.stderr
        assert b"not valid JSON" in done.stderr and len(done.stderr.splitlines()) <= 2
    assert path.read_text() == HOSTILE_JSON[kind]
    assert not (Path(project.env["MEMORY_REVIEW_HOME"]) / "install-backups").exists()


def test_a_lone_surrogate_is_refused_before_the_backup_is_written(project: Project) -> None:
    path = project.root / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_text('{"x": "\\ud800"}\n')
    done = project.run("install", "claude-code")
    assert done.returncode == 1 and b"no UTF-8" in done.stderr and b"Traceback" not in done.stderr
    assert path.read_text() == '{"x": "\\ud800"}\n'
    assert not (Path(project.env["MEMORY_REVIEW_HOME"]) / "install-backups").exists()


def test_doctor_reads_a_deeply_nested_settings_file_without_a_traceback(project: Project) -> None:
    path = project.root / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_text(HOSTILE_JSON["nested past json's recursion"])
    done = project.run("doctor")
    assert b"Traceback" not in done.stderr and b"RecursionError" not in done.stdout + done.stderr, done.stderr


def _gemini_home(project: Project, tmp_path: Path) -> Path:
    home = tmp_path / "gemini-home"
    project.env["GEMINI_CLI_HOME"] = str(home)
    (home / ".gemini").mkdir(parents=True)
    return home / ".gemini" / "settings.json"


def test_a_dotfiles_link_for_the_users_gemini_settings_is_installed_through_and_its_switch_read(
    project: Project, tmp_path: Path
) -> None:
    user = _gemini_home(project, tmp_path)
    dotfiles = Path(project.env["HOME"]) / "dotfiles" / "gemini.json"
    dotfiles.parent.mkdir(parents=True)
    dotfiles.write_text('{"hooksConfig": {"enabled": true}}\n')
    user.symlink_to(dotfiles)
    for scope in ("--project", "--user"):
        done = project.run("install", "gemini", scope)
        assert done.returncode == 0, done.stderr
        assert f"hooks system: on: hooksConfig.enabled is true in {user}" in done.stdout.decode()
    assert (project.root / ".memory-review").is_dir()  # the project install ran to its end
    assert user.is_symlink() and "BeforeAgent" in json.loads(dotfiles.read_text())["hooks"]


@pytest.mark.parametrize(
    "content", ["not json\n", '{\n  // picked by /settings\n  "ui": {"theme": "Default"}\n}\n'], ids=["bad", "comments"]
)
def test_a_project_gemini_file_install_cannot_read_never_fails_the_users_install(
    project: Project, tmp_path: Path, content: str
) -> None:
    user = _gemini_home(project, tmp_path)
    theirs = project.root / ".gemini" / "settings.json"
    theirs.parent.mkdir()
    theirs.write_text(content)
    done = project.run("install", "gemini", "--user")
    assert done.returncode == 0, done.stderr
    said = done.stdout.decode()
    assert f"hooks system: not known: {theirs}" in said and "nothing was changed" not in said
    assert "BeforeAgent" in json.loads(user.read_text())["hooks"]
    assert theirs.read_text() == content


def test_gemini_settings_with_comments_are_refused_with_a_hint(project: Project) -> None:
    path = project.root / ".gemini" / "settings.json"
    path.parent.mkdir()
    path.write_text('{\n  // picked by /settings\n  "ui": {"theme": "Default"}\n}\n')
    done = project.run("install", "gemini")
    assert done.returncode == 1 and b"not valid JSON" in done.stderr and b"comments" in done.stderr


@pytest.mark.parametrize(
    "command",
    [
        "uvx memory-review hook claude-code",
        "env X=1 memory-review hook claude-code",
        "memory-review --project /tmp hook claude-code",
        "memory-review hook codex",
        "python3 -m memory_review hook claude-code",  # the project first on sys.path (ADR 0170)
        ".venv/bin/memory-review hook claude-code",  # the project's own file
        "python3 -W -P -m memory_review hook claude-code",  # -P is -W's value: the re-review of session 37
        "python3 -- -P -m memory_review hook claude-code",
        ".venv/bin/python -P -m memory_review hook claude-code",
        "bash -P -m memory_review.cli hook claude-code",  # not Python: -m is what bash makes of it
    ],
)
def test_a_command_install_could_not_find_again_is_refused_before_anything_is_written(
    project: Project, command: str
) -> None:
    path = project.root / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_text('{"model": "x"}\n')
    done = project.run("install", "claude-code", "--command", command)
    assert done.returncode == 1 and b"--command" in done.stderr and b"Traceback" not in done.stderr, done.stderr
    assert path.read_text() == '{"model": "x"}\n'


@pytest.mark.parametrize(
    "command",
    [
        "/opt/bin/memory-review hook claude-code",
        "~/.local/bin/memory-review hook claude-code",
        "python3 -P -m memory_review hook claude-code",
        "/usr/bin/python3.11 -X utf8 -P -m memory_review.cli hook claude-code",
    ],
)
def test_a_command_of_the_known_shapes_is_installed_once_and_uninstalled(project: Project, command: str) -> None:
    path = project.root / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_text('{"model": "x"}\n')
    assert project.run("install", "claude-code", "--command", command).returncode == 0
    assert b"unchanged" in project.run("install", "claude-code", "--command", command).stdout
    assert project.run("uninstall", "claude-code").returncode == 0
    assert path.read_text() == '{"model": "x"}\n'


def test_a_stale_backup_does_not_come_back_when_install_created_the_file(project: Project) -> None:
    path = project.root / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_text('{\n  "autoMemoryEnabled": true\n}\n')
    assert project.run("install", "claude-code").returncode == 0
    path.unlink()  # the person deletes the file while installed: the backup stays behind
    assert project.run("install", "claude-code").returncode == 0
    done = project.run("uninstall", "claude-code")
    assert done.returncode == 0 and b"deleted" in done.stdout, done.stdout
    assert not path.exists()


def test_a_settings_link_into_the_project_store_is_refused(project: Project) -> None:
    assert project.run("init").returncode == 0
    manifest = project.root / ".memory-review" / "manifest.json"
    before = manifest.read_bytes()
    (project.root / ".claude").mkdir()
    (project.root / ".claude" / "settings.json").symlink_to("../.memory-review/manifest.json")
    done = project.run("install", "claude-code")
    assert done.returncode == 1 and b".memory-review" in done.stderr and b"nothing was changed" in done.stderr
    assert manifest.read_bytes() == before
    assert project.run("list").returncode == 0


def test_install_refuses_to_grow_a_file_past_what_uninstall_reads(project: Project) -> None:
    path = project.root / ".claude" / "settings.json"
    path.parent.mkdir()
    compact = json.dumps({"env": {f"K{i}": "v" for i in range(250_000)}}, separators=(",", ":")) + "\n"
    path.write_text(compact)
    done = project.run("install", "claude-code")
    assert done.returncode == 1 and b"would grow past" in done.stderr, done.stderr
    assert path.read_text() == compact


def test_an_os_error_names_the_file(project: Project) -> None:
    (project.root / ".claude").write_text("a file where the folder should be\n")
    done = project.run("install", "claude-code")
    assert done.returncode == 1 and b"Traceback" not in done.stderr
    assert b".claude" in done.stderr and b"Not a directory" in done.stderr, done.stderr
    assert os.path.isfile(project.root / ".claude")


def test_doctor_says_an_older_python_m_hook_imports_from_the_project(project: Project) -> None:
    path = project.root / ".claude" / "settings.json"
    path.parent.mkdir()
    command = "python3 -m memory_review.cli hook claude-code"
    path.write_text(json.dumps({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": command}]}]}}))
    said = project.run("doctor").stdout.decode()
    assert "imports from the project it runs in" in said and "install claude-code --project" in said


def test_a_number_json_reads_as_infinity_is_refused_not_written_back_as_infinity(project: Project) -> None:
    path = project.root / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_text('{"x": 1e400}\n')
    done = project.run("install", "claude-code")
    assert done.returncode == 1 and b"too large" in done.stderr
    assert path.read_text() == '{"x": 1e400}\n'


def test_a_settings_link_to_a_file_that_is_no_json_is_refused(project: Project) -> None:
    (project.root / ".gitignore").write_text("node_modules/\n")
    (project.root / ".claude").mkdir()
    (project.root / ".claude" / "settings.json").symlink_to("../.gitignore")
    done = project.run("install", "claude-code")
    assert done.returncode == 1 and b"no JSON file" in done.stderr
    assert (project.root / ".gitignore").read_text() == "node_modules/\n"


def test_a_file_where_the_project_store_goes_is_refused_before_the_settings_change(project: Project) -> None:
    shutil.rmtree(project.root / ".memory-review", ignore_errors=True)  # the kit's store, if it made one
    (project.root / ".memory-review").write_text("committed by the repository\n")
    done = project.run("install", "claude-code")
    assert done.returncode == 1 and b"no project store can be made" in done.stderr
    assert not (project.root / ".claude" / "settings.json").exists()


def test_the_comments_hint_reads_comments_anywhere_but_in_strings(project: Project) -> None:
    path = project.root / ".gemini" / "settings.json"
    path.parent.mkdir()
    path.write_text('{\n  "ui": {"theme": "Default"}, // picked by /settings\n  "url": "http://x"\n}\n')
    done = project.run("install", "gemini")
    assert done.returncode == 1 and b"comments" in done.stderr
