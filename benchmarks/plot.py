"""PNG charts drawn with the standard library only (zlib + struct): no plotting dependency to install.

Enough for the performance page: line charts (log-scaled x) and horizontal bar
charts of ratios against their goals, labelled with a built-in 5×7 pixel font.
"""

from __future__ import annotations

import itertools
import math
import struct
import zlib
from collections.abc import Sequence
from pathlib import Path

Color = tuple[int, int, int]
WHITE, BLACK, GREY, LIGHT = (255, 255, 255), (30, 30, 30), (120, 120, 120), (225, 225, 225)
GREEN, RED, BLUE, ORANGE = (46, 139, 87), (200, 50, 50), (40, 90, 180), (220, 120, 20)
PALETTE = (BLUE, ORANGE, GREEN, RED)

# Each glyph: seven rows of five pixels, top to bottom; lowercase text is drawn in capitals.
FONT = {
    "0": ".###. #...# #..## #.#.# ##..# #...# .###.",
    "1": "..#.. .##.. ..#.. ..#.. ..#.. ..#.. .###.",
    "2": ".###. #...# ....# ...#. ..#.. .#... #####",
    "3": "####. ....# ....# .###. ....# ....# ####.",
    "4": "...#. ..##. .#.#. #..#. ##### ...#. ...#.",
    "5": "##### #.... ####. ....# ....# #...# .###.",
    "6": "..##. .#... #.... ####. #...# #...# .###.",
    "7": "##### ....# ...#. ..#.. .#... .#... .#...",
    "8": ".###. #...# #...# .###. #...# #...# .###.",
    "9": ".###. #...# #...# .#### ....# ...#. .##..",
    "A": ".###. #...# #...# ##### #...# #...# #...#",
    "B": "####. #...# #...# ####. #...# #...# ####.",
    "C": ".###. #...# #.... #.... #.... #...# .###.",
    "D": "####. #...# #...# #...# #...# #...# ####.",
    "E": "##### #.... #.... ####. #.... #.... #####",
    "F": "##### #.... #.... ####. #.... #.... #....",
    "G": ".###. #...# #.... #.### #...# #...# .####",
    "H": "#...# #...# #...# ##### #...# #...# #...#",
    "I": ".###. ..#.. ..#.. ..#.. ..#.. ..#.. .###.",
    "J": "..### ...#. ...#. ...#. ...#. #..#. .##..",
    "K": "#...# #..#. #.#.. ##... #.#.. #..#. #...#",
    "L": "#.... #.... #.... #.... #.... #.... #####",
    "M": "#...# ##.## #.#.# #.#.# #...# #...# #...#",
    "N": "#...# #...# ##..# #.#.# #..## #...# #...#",
    "O": ".###. #...# #...# #...# #...# #...# .###.",
    "P": "####. #...# #...# ####. #.... #.... #....",
    "Q": ".###. #...# #...# #...# #.#.# #..#. .##.#",
    "R": "####. #...# #...# ####. #.#.. #..#. #...#",
    "S": ".#### #.... #.... .###. ....# ....# ####.",
    "T": "##### ..#.. ..#.. ..#.. ..#.. ..#.. ..#..",
    "U": "#...# #...# #...# #...# #...# #...# .###.",
    "V": "#...# #...# #...# #...# #...# .#.#. ..#..",
    "W": "#...# #...# #...# #.#.# #.#.# #.#.# .#.#.",
    "X": "#...# #...# .#.#. ..#.. .#.#. #...# #...#",
    "Y": "#...# #...# .#.#. ..#.. ..#.. ..#.. ..#..",
    "Z": "##### ....# ...#. ..#.. .#... #.... #####",
    ".": "..... ..... ..... ..... ..... .##.. .##..",
    ",": "..... ..... ..... ..... .##.. ..#.. .#...",
    ":": "..... .##.. .##.. ..... .##.. .##.. .....",
    "/": "....# ....# ...#. ..#.. .#... #.... #....",
    "-": "..... ..... ..... ##### ..... ..... .....",
    "+": "..... ..#.. ..#.. ##### ..#.. ..#.. .....",
    "(": "...#. ..#.. .#... .#... .#... ..#.. ...#.",
    ")": ".#... ..#.. ...#. ...#. ...#. ..#.. .#...",
    "%": "##..# ##..# ...#. ..#.. .#... #..## #..##",
    "=": "..... ..... ##### ..... ##### ..... .....",
    "<": "...#. ..#.. .#... #.... .#... ..#.. ...#.",
    ">": ".#... ..#.. ...#. ....# ...#. ..#.. .#...",
    "_": "..... ..... ..... ..... ..... ..... #####",
    "~": "..... ..... .#... #.#.# ...#. ..... .....",
    "×": "..... #...# .#.#. ..#.. .#.#. #...# .....",
    "≤": "...#. ..#.. .#... ..#.. ...#. ..... #####",
    "≥": ".#... ..#.. ...#. ..#.. .#... ..... #####",
    "'": "..#.. ..#.. ..... ..... ..... ..... .....",
    ";": "..... .##.. .##.. ..... .##.. ..#.. .#...",
    "?": ".###. #...# ....# ...#. ..#.. ..... ..#..",
    " ": "..... ..... ..... ..... ..... ..... .....",
}


class Canvas:
    """An RGB image in memory, written out as PNG."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.pixels = bytearray(WHITE * (width * height))

    def dot(self, x: int, y: int, color: Color) -> None:
        if 0 <= x < self.width and 0 <= y < self.height:
            at = 3 * (y * self.width + x)
            self.pixels[at : at + 3] = bytes(color)

    def rect(self, x: int, y: int, w: int, h: int, color: Color) -> None:
        for row in range(max(y, 0), min(y + h, self.height)):
            at = 3 * (row * self.width + max(x, 0))
            span = max(0, min(x + w, self.width) - max(x, 0))
            self.pixels[at : at + 3 * span] = bytes(color) * span

    def line(self, x0: float, y0: float, x1: float, y1: float, color: Color, width: int = 1) -> None:
        steps = int(max(abs(x1 - x0), abs(y1 - y0))) + 1
        for i in range(steps + 1):
            t = i / steps
            x, y = round(x0 + (x1 - x0) * t), round(y0 + (y1 - y0) * t)
            self.rect(x - width // 2, y - width // 2, width, width, color)

    def text(self, x: int, y: int, text: str, color: Color = BLACK, scale: int = 2) -> None:
        for index, char in enumerate(plain(text).upper()):
            rows = FONT.get(char, FONT["?"]).split()
            for r, row in enumerate(rows):
                for c, bit in enumerate(row):
                    if bit == "#":
                        self.rect(x + (index * 6 + c) * scale, y + r * scale, scale, scale, color)

    def save(self, path: Path) -> None:
        stride = 3 * self.width
        raw = b"".join(b"\x00" + bytes(self.pixels[r * stride : (r + 1) * stride]) for r in range(self.height))
        header = struct.pack(">IIBBBBB", self.width, self.height, 8, 2, 0, 0, 0)
        path.write_bytes(
            b"\x89PNG\r\n\x1a\n"
            + _chunk(b"IHDR", header)
            + _chunk(b"IDAT", zlib.compress(raw, 9))
            + _chunk(b"IEND", b"")
        )


def plain(text: str) -> str:
    """Text as the font can draw it (no code quotes; an ellipsis as three dots)."""
    return text.replace("`", "").replace("…", "...")


def text_width(text: str, scale: int = 2) -> int:
    return len(plain(text)) * 6 * scale


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def nice_max(value: float) -> float:
    """A round axis maximum at or above ``value``."""
    if value <= 0:
        return 1.0
    power = 10 ** math.floor(math.log10(value))
    return next(step * power for step in (1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10) if step * power >= value)


def short(value: float) -> str:
    """A compact axis label: 1000 -> 1K, 1000000 -> 1M, 0.25 -> 0.25."""
    for div, suffix in ((1e6, "M"), (1e3, "K")):
        if value >= div:
            return f"{value / div:g}{suffix}"
    return f"{value:.3g}"


Points = Sequence[tuple[float, float]]


def line_chart(
    path: Path,
    title: str,
    series: Sequence[tuple[str, Points]],
    x_label: str,
    y_label: str,
    *,
    size: tuple[int, int] = (900, 520),
    log_y: bool = False,
) -> None:
    """Lines over a log-scaled x axis (the sizes grow by 10×); y from zero, or log-scaled by decades."""
    canvas = Canvas(*size)
    left, top, right, bottom = 110, 70, size[0] - 30, size[1] - 80
    xs = sorted({x for _, points in series for x, _ in points})
    ys = [y for _, points in series for _, y in points]
    lo, hi = math.log10(xs[0]), math.log10(xs[-1]) if len(xs) > 1 else math.log10(xs[0]) + 1
    y_ticks = _decades(ys) if log_y else [nice_max(max(ys) * 1.1) * i / 5 for i in range(6)]

    def px(x: float) -> float:
        return left + (math.log10(x) - lo) / ((hi - lo) or 1) * (right - left)

    def py(y: float) -> float:
        if log_y:
            span = math.log10(y_ticks[-1]) - math.log10(y_ticks[0])
            return bottom - (math.log10(max(y, y_ticks[0])) - math.log10(y_ticks[0])) / span * (bottom - top)
        return bottom - y / y_ticks[-1] * (bottom - top)

    canvas.text(left, 10, title, scale=3)
    for value in y_ticks:
        canvas.line(left, py(value), right, py(value), LIGHT)
        label = short(value)
        canvas.text(left - 12 - text_width(label), round(py(value)) - 7, label, GREY)
    for x in xs:
        canvas.line(px(x), bottom, px(x), bottom + 6, GREY)
        canvas.text(round(px(x)) - text_width(short(x)) // 2, bottom + 14, short(x), GREY)
    canvas.line(left, top, left, bottom, BLACK, 2)
    canvas.line(left, bottom, right, bottom, BLACK, 2)
    canvas.text((left + right - text_width(x_label)) // 2, bottom + 42, x_label)
    canvas.text(10, top - 28, y_label, GREY)
    for index, (label, points) in enumerate(series):
        color = PALETTE[index % len(PALETTE)]
        for (xa, ya), (xb, yb) in itertools.pairwise(points):
            canvas.line(px(xa), py(ya), px(xb), py(yb), color, 3)
        for x, y in points:
            canvas.rect(round(px(x)) - 4, round(py(y)) - 4, 9, 9, color)
        canvas.rect(left + 20, top + 10 + 24 * index, 20, 12, color)
        canvas.text(left + 50, top + 10 + 24 * index, label, color)
    canvas.save(path)


def _decades(values: Sequence[float]) -> list[float]:
    """Powers of ten spanning ``values`` (positive), one below and one above."""
    low = math.floor(math.log10(min(v for v in values if v > 0)))
    high = math.ceil(math.log10(max(values)))
    return [10.0**e for e in range(low, max(high, low + 1) + 1)]


def ratio_chart(path: Path, title: str, bars: Sequence[tuple[str, float, float | None]]) -> None:
    """One bar per row: its ratio (log scale, 1× to the largest), the goal as a black tick; green if met."""
    height = 90 + 34 * len(bars)
    canvas = Canvas(1300, height)
    left, right = 700, 1220
    top_value = nice_max(max([r for _, r, _ in bars] + [g or 1 for _, _, g in bars]) * 1.2)
    span = math.log10(max(top_value, 2.0)) - math.log10(0.1)

    def px(value: float) -> float:
        return left + (math.log10(max(value, 0.1)) - math.log10(0.1)) / span * (right - left)

    canvas.text(20, 20, title, scale=3)
    for mark in (0.1, 1, 10, 100, 1000):
        if mark <= top_value:
            canvas.line(px(mark), 60, px(mark), height - 20, LIGHT)
            canvas.text(round(px(mark)) + 4, height - 18, f"{mark:g}×", GREY)
    for index, (label, ratio, goal) in enumerate(bars):
        y = 64 + 34 * index
        met = goal is None or ratio <= goal
        canvas.text(20, y + 6, label[:55], BLACK)
        canvas.rect(left, y, max(2, round(px(ratio) - left)), 22, GREEN if met else RED)
        text_at = round(max(px(ratio), px(goal) if goal is not None else 0)) + 6  # clear of the goal tick
        canvas.text(text_at, y + 4, f"{ratio:.2g}×" if ratio < 100 else f"{ratio:.0f}×", BLACK)
        if goal is not None:
            canvas.rect(round(px(goal)) - 2, y - 4, 4, 30, BLACK)
    canvas.save(path)
