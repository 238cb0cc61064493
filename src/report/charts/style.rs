//! Looks and sizes: the canvas, type, legend rows and swatches; the colours and dashes of
//! series and theory lines; the markers of series and the mark of a budget-stopped point (in
//! the plot and in the legend, kept alike here).

use plotters::coord::Shift;
use plotters::prelude::*;

/// Okabe-Ito colours (distinguishable with colour-blindness) without the pale yellow and the
/// black (the theory lines are black and greys), then Paul Tol's darker muted ones: 13 before
/// a colour repeats (markers differ meanwhile).
const PALETTE: [RGBColor; 13] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
    RGBColor(17, 119, 51),
    RGBColor(136, 34, 85),
    RGBColor(68, 170, 153),
    RGBColor(153, 153, 51),
    RGBColor(51, 34, 136),
    RGBColor(170, 68, 153),
    RGBColor(102, 17, 0),
];
/// The colour and dash (length, gap in pixels) of a dashed line of style `i` (`Series::style`:
/// kind + LINE_KINDS × its place among the lines of that kind). The dash says the kind in every
/// chart (full tree dashed, minimal tree dotted, others long-dashed); the first line of each
/// kind has its own grey (the full and the minimal tree must not look alike where they run
/// close), and further lines of one kind take the next greys in turn.
pub(super) fn dashed_style(i: usize) -> (RGBColor, (u32, u32)) {
    const DASHES: [(u32, u32); LINE_KINDS] = [(14, 9), (5, 6), (30, 8)];
    let (kind, place) = (i % LINE_KINDS, i / LINE_KINDS);
    (
        THEORY_GREYS[(FIRST_GREY[kind] + place) % THEORY_GREYS.len()],
        DASHES[kind],
    )
}

/// The kinds of dashed line (`plan::LINE_FULL`, ...).
pub(super) const LINE_KINDS: usize = 3;
/// Five greys, dark to light: five lines of one kind before one looks like another.
const THEORY_GREYS: [RGBColor; 5] = [
    RGBColor(0, 0, 0),
    RGBColor(80, 80, 80),
    RGBColor(120, 120, 120),
    RGBColor(150, 150, 150),
    RGBColor(185, 185, 185),
];
/// Each kind's first grey: the full tree dark grey, the minimal tree black, the others light.
const FIRST_GREY: [usize; LINE_KINDS] = [1, 0, 3];

pub const WIDTH: u32 = 1200;
pub const PLOT_HEIGHT: u32 = 800;
pub(super) const TITLE_PX: u32 = 38;
pub(super) const AXIS_PX: u32 = 32;
pub(super) const TICK_PX: u32 = 28;
pub(super) const LEGEND_PX: u32 = 28;
pub(super) const LEGEND_ROW: u32 = 44;
pub(super) const SWATCH: u32 = 64;

pub(super) fn color(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// A bar's face and its edge, in a series' colour (the plot's bars and the legend's swatch).
pub(super) fn bar_face(col: RGBColor) -> [ShapeStyle; 2] {
    [col.mix(0.35).filled(), col.stroke_width(2)]
}

/// Series `i`'s marker: one of six shapes (circle, triangle up, square, diamond, triangle
/// down, star), filled for the first six series and hollow (outlined) for the next six, drawn
/// in the plot and the legend alike: twelve series before a marker repeats, and colours repeat
/// only after thirteen, so no two series of a chart look alike. Returns the shape and whether
/// it is filled.
pub(super) fn marker_kind(i: usize) -> (usize, bool) {
    (i % 6, (i / 6).is_multiple_of(2))
}

const MARKER_SIZE: i32 = 9;

/// The outline of marker `shape` (1 to 5) around (0, 0), in pixels (y down); shape 0, the
/// circle, has none.
pub(super) fn marker_outline(shape: usize) -> Vec<(i32, i32)> {
    let r = MARKER_SIZE as f64;
    // Regular polygons by radius and the angle of their first vertex (degrees, 0 = up).
    let polygon = |n: usize, radius: f64, first: f64| -> Vec<(f64, f64)> {
        (0..n)
            .map(|k| {
                let a = (first + 360.0 * k as f64 / n as f64).to_radians();
                (radius * a.sin(), -radius * a.cos())
            })
            .collect()
    };
    let pts = match shape {
        1 => polygon(3, r + 3.0, 0.0),
        2 => polygon(4, r * std::f64::consts::SQRT_2, 45.0),
        3 => polygon(4, r + 3.0, 0.0),
        4 => polygon(3, r + 3.0, 180.0),
        _ => {
            // A five-pointed star: outer and inner vertices in turn.
            let outer = polygon(5, r + 4.0, 0.0);
            let inner = polygon(5, (r + 4.0) * 0.45, 36.0);
            outer
                .into_iter()
                .zip(inner)
                .flat_map(|(o, i)| [o, i])
                .collect()
        }
    };
    pts.into_iter()
        .map(|(x, y)| (x.round() as i32, y.round() as i32))
        .collect()
}

/// Draws series `i`'s marker at each point, on a chart (`chart`, data coordinates) or a
/// drawing area (`area`, pixels).
macro_rules! draw_markers {
    (@emit chart, $t:expr, $el:expr, $e:expr) => {
        $t.draw_series(std::iter::once($el)).map_err($e)?
    };
    (@emit area, $t:expr, $el:expr, $e:expr) => {
        $t.draw(&$el).map_err($e)?
    };
    ($mode:ident, $t:expr, $points:expr, $i:expr, $col:expr, $e:expr) => {{
        let (shape, filled) = marker_kind($i);
        let col: RGBColor = $col;
        for p in $points {
            match (shape, filled) {
                (0, true) => {
                    draw_markers!(@emit $mode, $t, Circle::new(p, MARKER_SIZE, col.filled()), $e);
                }
                (0, false) => {
                    let st = col.stroke_width(3);
                    draw_markers!(@emit $mode, $t, Circle::new(p, MARKER_SIZE, st), $e);
                }
                (_, true) => {
                    let el = EmptyElement::at(p) + Polygon::new(marker_outline(shape), col.filled());
                    draw_markers!(@emit $mode, $t, el, $e);
                }
                (_, false) => {
                    let mut ring = marker_outline(shape);
                    // Closed, and on to the second vertex so that the first corner joins.
                    ring.push(ring[0]);
                    ring.push(ring[1]);
                    let el = EmptyElement::at(p) + PathElement::new(ring, col.stroke_width(3));
                    draw_markers!(@emit $mode, $t, el, $e);
                }
            }
        }
    }};
}

pub(super) fn draw_marker<
    DB: DrawingBackend,
    X: Ranged<ValueType = f64>,
    Y: Ranged<ValueType = f64>,
>(
    chart: &mut ChartContext<DB, Cartesian2d<X, Y>>,
    pts: &[(f64, f64)],
    i: usize,
    col: RGBColor,
) -> std::result::Result<(), String> {
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    draw_markers!(chart, chart, pts.iter().copied(), i, col, e);
    Ok(())
}

pub(super) fn legend_marker<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    at: (i32, i32),
    i: usize,
    col: RGBColor,
) -> std::result::Result<(), String> {
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    draw_markers!(area, area, std::iter::once(at), i, col, e);
    Ok(())
}

/// The budget mark at data point `$at`: a floor bar with an arrow rising from it (the mean is
/// a lower bound). No series marker (circle, triangle, square, diamond, filled or hollow) has
/// this shape, so a budget point is never read as a series' own point; drawn heavier than a
/// whisker (a 6 px bar, 4 px strokes), its floor is not read as a whisker's cap where the
/// whisker runs through it. `$half`: the bar's half width in pixels, at most 12 (narrower
/// where many series share an x, so that neighbouring marks stay apart); the arrowhead is as
/// wide as the bar.
macro_rules! budget_element {
    ($at:expr, $col:expr, $half:expr) => {{
        let w: i32 = $half;
        let head = w;
        let st = $col.stroke_width(4);
        EmptyElement::at($at)
            + PathElement::new(vec![(-w, 0), (w, 0)], $col.stroke_width(6))
            + PathElement::new(vec![(0, 0), (0, -37)], st)
            + PathElement::new(vec![(-head, -26), (0, -38), (head, -26)], st)
    }};
}
pub(super) use budget_element;

/// The budget mark in the legend, centred at `at`: the chart's mark, scaled to the legend.
pub(super) fn budget_mark<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    at: (i32, i32),
    col: RGBColor,
) -> std::result::Result<(), String> {
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let (x, y) = at;
    area.draw(&PathElement::new(
        vec![(x - 10, y + 12), (x + 10, y + 12)],
        col.stroke_width(6),
    ))
    .map_err(e)?;
    let st = col.stroke_width(4);
    area.draw(&PathElement::new(vec![(x, y + 12), (x, y - 19)], st))
        .map_err(e)?;
    area.draw(&PathElement::new(
        vec![(x - 7, y - 11), (x, y - 20), (x + 7, y - 11)],
        st,
    ))
    .map_err(e)?;
    Ok(())
}
