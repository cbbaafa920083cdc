"""Draws the DejaVu piece set: the chess glyphs of DejaVu Sans (U+2654 to
U+265F) turned into twelve SVG files, so that the page shows the same
pieces whatever fonts the browser's machine has. Each piece is its
glyph in black over the glyph's silhouette in white (the outline of the
filled glyph without its holes): a glyph alone is hollow and the square
would show through. Run from this folder: python3 make.py [DejaVuSans.ttf]
(needs fontTools: pip install fonttools)."""

import sys

from fontTools.pens.areaPen import AreaPen
from fontTools.pens.boundsPen import BoundsPen
from fontTools.pens.recordingPen import RecordingPen
from fontTools.pens.svgPathPen import SVGPathPen
from fontTools.pens.transformPen import TransformPen
from fontTools.ttLib import TTFont

FONT = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
ROLES = "KQRBNP"
SIZE = 45  # the viewBox of the Cburnett set, so both sets fill a square alike
MARGIN = 3

font = TTFont(FONT)
glyphs = font.getGlyphSet()
cmap = font.getBestCmap()


def name(code):
    return cmap[code]


def bounds(glyph):
    pen = BoundsPen(glyphs)
    glyphs[glyph].draw(pen)
    return pen.bounds


# One scale for all pieces (the tallest fills the square) keeps their sizes
# in proportion; each is centred across and stands on a common baseline.
boxes = {code: bounds(name(code)) for code in range(0x2654, 0x2660)}
tallest = max(b[3] - b[1] for b in boxes.values())
widest = max(b[2] - b[0] for b in boxes.values())
scale = (SIZE - 2 * MARGIN) / max(tallest, widest)
floor = min(b[1] for b in boxes.values())


def contours(glyph):
    """The glyph's contours, each a list of pen calls."""
    rec = RecordingPen()
    glyphs[glyph].draw(rec)
    out, cur = [], []
    for op, args in rec.value:
        cur.append((op, args))
        if op in ("closePath", "endPath"):
            out.append(cur)
            cur = []
    return out


class Silhouette:
    """The glyph without its holes: only the contours that turn the way the
    outermost one does (holes turn the other way), so a fill covers it all."""

    def __init__(self, glyph):
        def area(c):
            pen = AreaPen()
            for op, args in c:
                getattr(pen, op)(*args)
            return pen.value

        cs = contours(glyph)
        outer = max(cs, key=lambda c: abs(area(c)))
        self.kept = [c for c in cs if area(c) * area(outer) > 0]

    def draw(self, pen):
        for c in self.kept:
            for op, args in c:
                getattr(pen, op)(*args)


def path(glyph, box):
    x0, _, x1, _ = box
    dx = SIZE / 2 - (x0 + x1) / 2 * scale
    dy = SIZE - MARGIN + floor * scale
    shape = glyph if isinstance(glyph, Silhouette) else glyphs[glyph]
    pen = SVGPathPen(glyphs, ntos=lambda v: f"{v:.2f}".rstrip("0").rstrip("."))
    # Font units go up, SVG's down: flip y and move onto the square.
    shape.draw(TransformPen(pen, (scale, 0, 0, -scale, dx, dy)))
    return pen.getCommands()


for i, role in enumerate(ROLES):
    outline, solid = 0x2654 + i, 0x265A + i
    box = boxes[solid]
    # The silhouette painted white under either glyph: the glyphs alone
    # have holes (a white piece is all hole), through which the square
    # would show.
    under = f'<path d="{path(Silhouette(name(solid)), box)}" fill="#fff"/>'
    for colour in "wb":
        glyph = outline if colour == "w" else solid
        body = under + f'<path d="{path(name(glyph), box)}" fill="#000"/>'
        svg = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {SIZE} {SIZE}" '
               f'width="{SIZE}" height="{SIZE}">{body}</svg>\n')
        with open(f"{colour}{role}.svg", "w") as f:
            f.write(svg)
