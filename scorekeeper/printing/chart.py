"""The score-progression chart: an SVG drawn by the app (one line per player), no JavaScript."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape

from ..rules.ledger import signed_cents

# Distinct in colour and in dash pattern, so a black-and-white print still tells the lines apart.
STYLES = [
    ("#1f77b4", ""),
    ("#d62728", "6 3"),
    ("#2ca02c", "2 2"),
    ("#9467bd", "8 3 2 3"),
    ("#ff7f0e", "4 4"),
    ("#17becf", "1 3"),
    ("#8c564b", "10 4"),
    ("#e377c2", "6 2 2 2"),
]


@dataclass(frozen=True)
class Chart:
    width: int = 640
    height: int = 260
    margin_left: int = 48
    margin_bottom: int = 28
    margin_top: int = 12
    legend_width: int = 150


@dataclass(frozen=True)
class Axes:
    """Where a step and a value land on a chart: steps 0…``steps`` across, ``low``…``high`` up."""

    chart: Chart
    low: int
    high: int
    steps: int

    @classmethod
    def fitting(cls, chart: Chart, values: Sequence[int], steps: int) -> Axes:
        low, high = min(values), max(values)
        return cls(chart, low, high if high > low else low + 1, max(steps, 1))

    @property
    def plot_width(self) -> int:
        return self.chart.width - self.chart.margin_left - self.chart.legend_width

    def x(self, i: int) -> float:
        return self.chart.margin_left + self.plot_width * i / self.steps

    def y(self, value: int) -> float:
        plot_h = self.chart.height - self.chart.margin_top - self.chart.margin_bottom
        return self.chart.margin_top + plot_h * (self.high - value) / (self.high - self.low)

    def value_labels(self, label: Callable[[int], str], font_size: int) -> list[str]:
        """0, the lowest and the highest value beside the vertical axis, leaving out one too close to another."""
        parts: list[str] = []
        labelled: list[float] = []
        for value in sorted({0, self.low, self.high}, key=lambda v: (v != 0, v)):
            if any(abs(self.y(value) - other) < 14 for other in labelled):
                continue  # too close to a label already drawn
            labelled.append(self.y(value))
            parts.append(
                f'<text x="{self.chart.margin_left - 6}" y="{self.y(value) + 4:.1f}" text-anchor="end" '
                f'font-size="{font_size}">{escape(label(value))}</text>'
            )
        return parts


def progression_svg(names: Sequence[str], rows: Sequence[dict[str, int]], chart: Chart = Chart()) -> str:
    """Running totals after each round, as an SVG document fragment (names are escaped)."""
    values = [0] + [row[name] for row in rows for name in names]
    axes = Axes.fitting(chart, values, len(rows))
    x, y, low, plot_w = axes.x, axes.y, axes.low, axes.plot_width
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {chart.width} {chart.height}" '
        f'width="{chart.width}" height="{chart.height}" role="img" aria-label="Score progression">',
        f'<line x1="{chart.margin_left}" y1="{y(low):.1f}" x2="{chart.margin_left}" y2="{chart.margin_top}" '
        'stroke="#777" stroke-width="1"/>',
        f'<line x1="{chart.margin_left}" y1="{y(0):.1f}" x2="{chart.margin_left + plot_w}" y2="{y(0):.1f}" '
        'stroke="#777" stroke-width="1"/>',
    ]
    parts += axes.value_labels(str, 11)
    for i in range(1, len(rows) + 1):
        parts.append(f'<text x="{x(i):.1f}" y="{chart.height - 8}" text-anchor="middle" font-size="11">{i}</text>')
    for index, name in enumerate(names):
        colour, dash = STYLES[index % len(STYLES)]
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate([0] + [row[name] for row in rows]))
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2.5"{dash_attr}/>')
        ly = chart.margin_top + 8 + index * 18
        lx = chart.width - chart.legend_width + 12
        parts.append(
            f'<line x1="{lx}" y1="{ly}" x2="{lx + 26}" y2="{ly}" stroke="{colour}" stroke-width="2.5"{dash_attr}/>'
        )
        label = escape(name if len(name) <= 16 else name[:15] + "…")
        parts.append(f'<text x="{lx + 32}" y="{ly + 4}" font-size="12">{label}</text>')
    parts.append("</svg>")
    return "".join(parts)


def money_svg(points: Sequence[tuple[str, int]], chart: Chart = Chart(width=520, height=200, legend_width=20)) -> str:
    """A player's money over time: the running total in cents after each period (one line)."""
    values = [0] + [cents for _, cents in points]
    axes = Axes.fitting(chart, values, len(points))
    line = " ".join(f"{axes.x(i):.1f},{axes.y(v):.1f}" for i, v in enumerate(values))
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {chart.width} {chart.height}" '
        f'width="{chart.width}" height="{chart.height}" role="img" '
        f'aria-label="Money over time: {escape(signed_cents(values[-1]))} at the end">',
        f'<line x1="{chart.margin_left}" y1="{axes.y(0):.1f}" x2="{chart.margin_left + axes.plot_width}" '
        f'y2="{axes.y(0):.1f}" stroke="#777" stroke-width="1"/>',
        f'<polyline points="{line}" fill="none" stroke="{STYLES[0][0]}" stroke-width="2.5"/>',
        *axes.value_labels(signed_cents, 10),
    ]
    for i, (period, _) in ((0, points[0]), (len(points), points[-1])) if points else ():
        anchor = "start" if i == 0 else "end"
        parts.append(
            f'<text x="{axes.x(i):.1f}" y="{chart.height - 8}" text-anchor="{anchor}" font-size="10">{period}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)
