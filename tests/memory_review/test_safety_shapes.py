"""Redaction of the shapes ADR 0171 left unread (session 39): a URL encoded more than once, a table whose header row
names the secret column, XML attributes and CDATA. Single-secret cases are in test_safety.py's SECRETS, where every
disguise is tried on them too; these are the shapes with more than one secret, or with an end to find."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_kit import examples

from memory_review.safety import FLAG_SECRET, redact, redact_within, scan

_TOKEN = "Zq8Lm3Rt7Yx2Wv9Kp4Nb6Hc1Jd5Fg0"


def test_every_row_under_a_password_header_is_redacted_until_the_table_ends() -> None:
    text = (
        "Test users:\n"
        "| user | password |\n"
        "|------|----------|\n"
        "| bob  | Hunter2!xyz |\n"
        "| ann  | `s3cr3t!x` |\n"
        "| carl | required |\n"  # a word, not a password (the row patterns' rule)
        "\n"
        "| bob | Hunter2!abc |\n"  # another table, with no header: its cells are no column's
    )
    assert redact(text) == (
        "Test users:\n"
        "| user | password |\n"
        "|------|----------|\n"
        "| bob  | [REDACTED:password] |\n"
        "| ann  | `[REDACTED:password]` |\n"
        "| carl | required |\n"
        "\n"
        "| bob | Hunter2!abc |\n"
    )


def test_each_secret_column_of_a_header_is_read_and_only_those() -> None:
    text = (
        "| **DB password** | Service | API token (prod) | Notes |\n"
        "| :--- | --- | ---: | --- |\n"
        f"| Hunter2!xyz | s3rvice!9 | {_TOKEN} | kept!1 |\n"
        "| Tr0ub4dor&3 | web |\n"  # a short row: the token column is missing
    )
    assert redact(text) == (
        "| **DB password** | Service | API token (prod) | Notes |\n"
        "| :--- | --- | ---: | --- |\n"
        "| [REDACTED:password] | s3rvice!9 | [REDACTED:token] | kept!1 |\n"
        "| [REDACTED:password] | web |\n"
    )


def test_a_table_written_with_windows_line_ends_is_read() -> None:
    text = "| user | password |\r\n|---|---|\r\n| bob | Hunter2!xyz |\r\n| ann | s3cr3t!x\r\n\r\nafter"
    assert redact(text) == (
        "| user | password |\r\n|---|---|\r\n| bob | [REDACTED:password] |\r\n| ann | [REDACTED:password]\r\n\r\nafter"
    )


def test_a_column_is_redacted_before_a_cut() -> None:
    rows = "".join(f"| user{i} | Hunter2!{i:03d}x |\n" for i in range(200))
    cut = redact_within("| user | password |\n|---|---|\n" + rows, 3000)
    assert "Hunter2!" not in cut


def test_several_appsettings_in_one_config() -> None:
    text = (
        "<appSettings>\n"
        '  <add key="Environment" value="prod-2" />\n'
        '  <add key="DbPassword" value="s3cr3t!" />\n'
        f'  <add key="Stripe:ApiKey" value="{_TOKEN}" />\n'
        '  <add key="RequirePassword" value="true" />\n'
        "</appSettings>"
    )
    assert redact(text) == (
        "<appSettings>\n"
        '  <add key="Environment" value="prod-2" />\n'
        '  <add key="DbPassword" value="[REDACTED:password]" />\n'
        '  <add key="Stripe:ApiKey" value="[REDACTED:token]" />\n'
        '  <add key="RequirePassword" value="true" />\n'
        "</appSettings>"
    )


def _escaped(ch: str, levels: int) -> str:
    """``ch`` percent-encoded ``levels`` times over: "=" -> "%3D" -> "%253D" -> "%25253D"."""
    return "%" + "25" * (levels - 1) + f"{ord(ch):02X}" if levels else ch


_WRITTEN = [
    # (key and separator, value, kind)
    ("password=", "Hunter2!x9", "password"),
    ("x-token=", "ghp_16C7e42F292c6912E7710c838347Ae178B4a", "github-token"),
    ("postgres://app:", "s3cr3t!9", "url-credentials"),
]


@settings(max_examples=examples(300), deadline=None)
@given(st.sampled_from(_WRITTEN), st.data())
def test_a_secret_escaped_up_to_three_times_is_redacted_whole(written: tuple[str, str, str], data) -> None:
    """Each character of the key and its value escaped 0 to 3 times, mixed as a URL passed through redirects is:
    the secret is found in the text decoded until no escape is left, and its span maps back to all of it."""
    key, value, kind = written
    suffix = "@db/prod" if kind == "url-credentials" else ""
    levels = data.draw(st.lists(st.integers(0, 3), min_size=len(key + value), max_size=len(key + value)))
    encoded_key = "".join(_escaped(c, n) for c, n in zip(key, levels, strict=False))
    encoded_value = "".join(_escaped(c, n) for c, n in zip(value, levels[len(key) :], strict=False))
    text = f"open /cb?next={encoded_key}{encoded_value}{suffix} ok"
    assert FLAG_SECRET in scan(text)
    assert redact(text) == f"open /cb?next={encoded_key}[REDACTED:{kind}]{suffix} ok"
