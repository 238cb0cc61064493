//! Drawing one chart: title, axes, series (points, lines, whiskers, budget marks), theory
//! lines and legend.

use plotters::coord::ranged1d::ValueFormatter;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::axes::{
    log_ticks, log_x_ticks, plot_height, sci, si, vertical_labels, wide_log, x_label_area, Frame,
};
use super::legend::draw_legend;
use super::plan::{Chart, Point, Series};
use super::style::{
    bar_face, budget_element, color, dashed_style, draw_marker, AXIS_PX, TICK_PX, TITLE_PX, WIDTH,
};
use super::FAMILY;

/// The least distance between the centres of two series' markers set side by side, in
/// pixels: a marker's width (the star, the widest, is 26 px across).
const MARKER_GAP_PX: f64 = 24.0;

/// Draws `c` on `root` (WIDTH x canvas_height).
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    c: &Chart,
) -> std::result::Result<(), String> {
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(e)?;
    let vertical = vertical_labels(root, c);
    let (plot, legend) = root.split_vertically(plot_height(vertical));
    let Frame {
        xs,
        step,
        x0,
        x1,
        y0,
        y1,
    } = Frame::of(c);
    let k = c.series.len().max(1) as f64;
    // The narrowest gap between neighbouring x values in decades (a log axis's `step`).
    let log_step = xs
        .windows(2)
        .filter(|w| w[0] > 0.0)
        .map(|w| (w[1] / w[0]).log10())
        .fold(f64::INFINITY, f64::min);
    let integer_x = c.categories.is_none() && xs.iter().all(|x| x.fract() == 0.0) && !c.log_x;
    let nonnegative_x = xs.iter().all(|&x| x >= 0.0);
    let tick_style = TextStyle::from((FAMILY, TICK_PX).into_font());
    let rotate = vertical.is_some();
    let cats = c.categories.clone();
    // A log x axis with few values (table sizes) is labelled at those values, exactly.
    let log_x_exact = c.log_x && xs.len() <= 12;
    let x_sci = c.log_x && wide_log(x0, x1);
    let x_fmt = move |v: &f64| -> String {
        if rotate {
            // Drawn below, vertically, after the mesh.
            return String::new();
        }
        if let Some(cats) = &cats {
            let i = v.round();
            if (v - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < cats.len() {
                return cats[i as usize].clone();
            }
            return String::new();
        }
        if integer_x {
            // No negative label on an axis of values from 0 up (a depth of 0): the room left
            // of 0 is for the series set side by side there.
            if *v < -1e-6 && nonnegative_x {
                return String::new();
            }
            if (v - v.round()).abs() < 1e-6 {
                whole(*v)
            } else {
                String::new()
            }
        } else if log_x_exact && (v - v.round()).abs() < 1e-6 {
            whole(*v)
        } else if x_sci {
            sci(*v)
        } else {
            si(*v)
        }
    };
    // Past a dozen decades every label is a power of ten (1e12 beside 1e24, not 1T).
    let y_sci = c.log_y && wide_log(y0, y1);
    let y_fmt = move |v: &f64| if y_sci { sci(*v) } else { si(*v) };
    // A theory line may stand at x values with no point (a group whose runs a budget left
    // out of the chart), widening the axis past the one x.
    let theory_elsewhere = c
        .theory
        .iter()
        .flat_map(|s| &s.points)
        .any(|p| xs.first().is_some_and(|&x| p.x != x));
    let n_xlabels = if integer_x && xs.len() == 1 && !theory_elsewhere {
        // One x value: one tick, at it (two more ticks would fall half a step either side,
        // where no whole number is, and stand unlabelled).
        1
    } else if c.categories.is_some() || (integer_x && x1 - x0 <= 24.0) {
        // Unit steps, so that every x with data gets its label (up to about 25 labels).
        (x1 - x0).ceil() as usize + 1
    } else {
        8
    };

    let plot = draw_title(root, &plot, c)?;
    // The y title is centred on the plot's height: one longer than the canvas leaves room
    // for about that centre (a long statistic and counter name beside a short plot above a
    // tall legend) shrinks rather than runs off the canvas; the x title shares its size.
    let top = plot.get_base_pixel().1 + 20;
    let bottom =
        plot.get_base_pixel().1 + plot.dim_in_pixel().1 as i32 - 8 - x_label_area(vertical) as i32;
    let centre = (top + bottom) / 2;
    let room = 2 * centre.min(root.dim_in_pixel().1 as i32 - centre) - 16;
    let mut axis_px = AXIS_PX;
    while axis_px > 18 {
        let style = TextStyle::from((FAMILY, axis_px).into_font());
        match root.estimate_text_size(&c.y_title, &style) {
            Ok((w, _)) if w as i32 > room => axis_px -= 2,
            _ => break,
        }
    }
    let mut builder = ChartBuilder::on(&plot);
    builder
        .margin_top(20)
        .margin_left(16)
        .margin_right(40)
        .margin_bottom(8)
        .x_label_area_size(x_label_area(vertical))
        .y_label_area_size(140);

    // Series side by side around each x, so that their bars do not hide each other: an
    // offset on a linear axis, a factor (in decades) on a log one. On a log axis the band
    // takes at most 0.16 decades and half the narrowest gap between x values (3, 4, 5 are a
    // tenth of a decade apart), so no point passes its neighbour's x. Bars take most of the
    // gap instead (side by side, not overlapping). Where that would set neighbouring
    // markers closer than a marker's width (three series at each of eleven key-bit counts:
    // 11 px apart, so that two equal points hid one another), the band widens until they
    // stand a marker apart, up to 0.6 of the gap between x values on a linear axis (and on
    // whole numbers spread at most 2 apart, within 0.45 of its x, so a point still reads at
    // its own x) and on a log one half the narrowest gap and 0.3 decades (the axis leaves
    // 0.2 decades either side of the data at most).
    let plot_px = f64::from(WIDTH - 140 - 16 - 40);
    let apart = |px_per_unit: f64| MARKER_GAP_PX * k / px_per_unit;
    let (lin_band, log_band) = if c.bars {
        (0.8, 0.4f64.min(0.8 * log_step))
    } else if k < 2.0 {
        (0.36, 0.16f64.min(0.5 * log_step))
    } else {
        let lin_cap = if integer_x {
            0.6f64.min(0.9 / step)
        } else {
            0.6
        };
        let lin = apart(plot_px * step / (x1 - x0)).clamp(0.36, lin_cap.max(0.36));
        let decade_px = plot_px / (x1 / x0).log10();
        let base = 0.16f64.min(0.5 * log_step);
        let log = if c.log_x && x0 > 0.0 && decade_px.is_finite() {
            apart(decade_px).clamp(base, (0.5 * log_step).min(0.3).max(base))
        } else {
            base
        };
        (lin, log)
    };
    let layout = Layout {
        c,
        k,
        step,
        x: (x0, x1),
        y: (y0, y1),
        log_step,
        lin_band,
        log_band,
        tick_style: &tick_style,
    };
    let mesh = Mesh {
        axis_px,
        n_xlabels,
        x_fmt: &x_fmt,
        y_fmt: &y_fmt,
        rotate,
    };
    match (c.log_x, c.log_y) {
        (false, true) => {
            let (yb, yl) = log_ticks(y0, y1);
            let mut chart = builder
                .build_cartesian_2d(
                    x0..x1,
                    (y0..y1)
                        .log_scale()
                        .with_key_points(yb)
                        .with_light_points(yl),
                )
                .map_err(e)?;
            draw_body(&mut chart, root, &layout, &mesh)?;
        }
        (false, false) => {
            let mut chart = builder.build_cartesian_2d(x0..x1, y0..y1).map_err(e)?;
            draw_body(&mut chart, root, &layout, &mesh)?;
        }
        (true, true) => {
            let (xb, xl) = log_x_ticks(x0, x1, &xs);
            let (yb, yl) = log_ticks(y0, y1);
            let mut chart = builder
                .build_cartesian_2d(
                    (x0..x1)
                        .log_scale()
                        .with_key_points(xb)
                        .with_light_points(xl),
                    (y0..y1)
                        .log_scale()
                        .with_key_points(yb)
                        .with_light_points(yl),
                )
                .map_err(e)?;
            draw_body(&mut chart, root, &layout, &mesh)?;
        }
        (true, false) => {
            let (xb, xl) = log_x_ticks(x0, x1, &xs);
            let mut chart = builder
                .build_cartesian_2d(
                    (x0..x1)
                        .log_scale()
                        .with_key_points(xb)
                        .with_light_points(xl),
                    y0..y1,
                )
                .map_err(e)?;
            draw_body(&mut chart, root, &layout, &mesh)?;
        }
    }

    draw_legend(root, &legend, c)?;
    root.present().map_err(e)?;
    Ok(())
}

/// A whole number as an x label: its digits, or a power of ten where the digits would run
/// long (from 1e15 up, where an f64 also stops holding every whole number).
fn whole(v: f64) -> String {
    if v.abs() < 1e15 {
        format!("{}", v.round() as i64)
    } else {
        si(v)
    }
}

/// Draws the chart's mesh, its series and its theory lines on `chart`, whose axes the
/// caller built linear or log.
fn draw_body<DB: DrawingBackend, X: Axis, Y: Axis>(
    chart: &mut ChartContext<DB, Cartesian2d<X, Y>>,
    root: &DrawingArea<DB, Shift>,
    l: &Layout,
    m: &Mesh,
) -> std::result::Result<(), String> {
    draw_mesh(chart, root, l, m)?;
    for (i, s) in l.c.series.iter().enumerate() {
        draw_one_series(chart, l, i, s)?;
    }
    draw_theory(chart, l)
}

/// The bounds the chart's parts are drawn under: a plotters chart on an x and a y axis of
/// `f64`, linear or log.
trait Axis: Ranged<ValueType = f64> + ValueFormatter<f64> {}
impl<T: Ranged<ValueType = f64> + ValueFormatter<f64>> Axis for T {}

/// A chart's frame and where its series sit side by side around each x.
struct Layout<'a> {
    c: &'a Chart,
    /// The number of series (at least 1).
    k: f64,
    /// The gap between neighbouring x values (a linear axis's).
    step: f64,
    x: (f64, f64),
    y: (f64, f64),
    /// The narrowest gap between neighbouring x values in decades (a log axis's `step`).
    log_step: f64,
    /// The width of the band the series share at each x: on a linear axis in steps, on a log
    /// one in decades.
    lin_band: f64,
    log_band: f64,
    tick_style: &'a TextStyle<'a>,
}

impl Layout<'_> {
    /// How far series `i` sits from its x: an offset on a linear axis, a factor (in decades)
    /// on a log one.
    fn dodge(&self, i: usize) -> f64 {
        let k = self.k;
        if k < 2.0 {
            0.0
        } else if self.c.log_x {
            (i as f64 - (k - 1.0) / 2.0) * (self.log_band / k)
        } else {
            (i as f64 - (k - 1.0) / 2.0) * (self.lin_band * self.step / k)
        }
    }

    /// `x` moved by the dodge `d`.
    fn shift(&self, x: f64, d: f64) -> f64 {
        if self.c.log_x {
            x * 10f64.powf(d)
        } else {
            x + d
        }
    }
}

/// The axes' text: the titles' size, how many x labels, the label formats, and whether the
/// category labels stand vertically (drawn apart, after the mesh).
struct Mesh<'a> {
    axis_px: u32,
    n_xlabels: usize,
    x_fmt: &'a dyn Fn(&f64) -> String,
    y_fmt: &'a dyn Fn(&f64) -> String,
    rotate: bool,
}

/// Draws the grid, the axes with their titles and labels, and the vertical category labels.
fn draw_mesh<DB: DrawingBackend, X: Axis, Y: Axis>(
    chart: &mut ChartContext<DB, Cartesian2d<X, Y>>,
    root: &DrawingArea<DB, Shift>,
    l: &Layout,
    m: &Mesh,
) -> std::result::Result<(), String> {
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let c = l.c;
    chart
        .configure_mesh()
        .x_desc(c.x_title.as_str())
        .y_desc(c.y_title.as_str())
        .axis_desc_style((FAMILY, m.axis_px))
        .label_style((FAMILY, TICK_PX))
        .x_labels(m.n_xlabels.min(20))
        .y_labels(10)
        .x_label_formatter(m.x_fmt)
        .y_label_formatter(m.y_fmt)
        .light_line_style(RGBColor(235, 235, 235))
        .bold_line_style(RGBColor(210, 210, 210))
        .draw()
        .map_err(e)?;
    if m.rotate {
        let y0 = l.y.0;
        // Vertical category labels, read bottom to top, their ends at the axis.
        let style = l
            .tick_style
            .clone()
            .transform(FontTransform::Rotate270)
            .pos(Pos::new(HPos::Right, VPos::Center));
        // Too many categories for a label each (the labels' glyphs, about three quarters of
        // the font's size across when written vertically, side by side pass the axis's
        // width): every k-th is labelled, from the first, so none overlap.
        let gap =
            (chart.backend_coord(&(1.0, y0)).0 - chart.backend_coord(&(0.0, y0)).0).max(1) as u32;
        let every = (TICK_PX * 3 / 4 + 2).div_ceil(gap).max(1) as usize;
        for (i, label) in c.categories.iter().flatten().enumerate().step_by(every) {
            let (px, py) = chart.backend_coord(&(i as f64, y0));
            root.draw(&Text::new(label.clone(), (px, py + 12), style.clone()))
                .map_err(e)?;
        }
    }
    Ok(())
}

/// Draws series `i`, `s`: its line, budget marks, bars, whiskers and markers, and a `0` beside
/// a marker that a log y axis puts on its floor.
fn draw_one_series<DB: DrawingBackend, X: Axis, Y: Axis>(
    chart: &mut ChartContext<DB, Cartesian2d<X, Y>>,
    l: &Layout,
    i: usize,
    s: &Series,
) -> std::result::Result<(), String> {
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let c = l.c;
    let (y0, y1) = l.y;
    let col = color(s.style);
    let d = l.dodge(i);
    // The markers of the measured points (a budget point gets its own mark).
    let pts: Vec<(f64, f64)> = s
        .points
        .iter()
        .filter(|p| !p.budget)
        .map(|p| (l.shift(p.x, d), p.y))
        .collect();
    // The line joins measured points only: not across categories or positions
    // (`Chart::lines`), and not to a point whose group hit a budget (a lower bound).
    if c.lines {
        for run in joined(&s.points, &s.breaks, |x| l.shift(x, d)) {
            chart
                .draw_series(LineSeries::new(run, col.stroke_width(3)))
                .map_err(e)?;
        }
    }
    // A series' slot at each x: an offset on a linear axis, decades on a log one.
    let (slot, log_slot) = (l.lin_band * l.step / l.k, l.log_band / l.k);
    // A budget mark's floor bar: 12 px each side of its x, or less where the series' slots
    // are narrower (many series at one x), 4 px at least.
    let half_px = |x: f64| {
        let half = if c.log_x { log_slot } else { slot } / 2.0;
        let left = chart.backend_coord(&(l.shift(x, d - half), y0)).0;
        let right = chart.backend_coord(&(l.shift(x, d + half), y0)).0;
        ((0.4 * f64::from(right - left)) as i32).clamp(4, 12)
    };
    let marks: Vec<_> = s
        .points
        .iter()
        .filter(|p| p.budget)
        .map(|p| budget_element!((l.shift(p.x, d), p.y), col, half_px(p.x)))
        .collect();
    chart.draw_series(marks).map_err(e)?;
    // Bars (`Chart::bars`) from the reference value 1 (the minimal tree) to each measured
    // mean, as wide as most of the series' slot, under the whiskers.
    if c.bars {
        let base = 1f64.clamp(y0, y1);
        for p in s.points.iter().filter(|p| !p.budget) {
            let x = l.shift(p.x, d);
            let (xl, xr) = if c.log_x {
                let f = 10f64.powf(0.45 * log_slot);
                (x / f, x * f)
            } else {
                (x - 0.45 * slot, x + 0.45 * slot)
            };
            let top = p.y.clamp(y0, y1);
            chart
                .draw_series(bar_face(col).map(|st| Rectangle::new([(xl, base), (xr, top)], st)))
                .map_err(e)?;
        }
    }
    // A whisker's cap: a twentieth of the gap between x values either side, or less where
    // many series share an x (at most 0.45 of a series' slot), so neighbouring caps stay apart.
    let cap = (0.05 * l.step).min(0.45 * slot);
    for p in &s.points {
        if c.whiskers && p.hi > p.lo {
            let x = l.shift(p.x, d);
            let st = col.stroke_width(2);
            // A minimum of 0 has no place on a log axis: the bar runs down to the axis and
            // ends in an arrowhead pointing off it, not in a cap that would read as a small
            // positive minimum.
            let zero_min = c.log_y && p.lo <= 0.0;
            let lo = if zero_min { y0 } else { p.lo };
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(x, lo), (x, p.hi)],
                    st,
                )))
                .map_err(e)?;
            if zero_min {
                chart
                    .draw_series(std::iter::once(
                        EmptyElement::at((x, y0))
                            + PathElement::new(
                                vec![(-7, -11), (0, 0), (7, -11)],
                                col.stroke_width(3),
                            ),
                    ))
                    .map_err(e)?;
            }
            // Caps as wide as on a linear axis of the same spacing: on a log one, a factor
            // of a twentieth of the narrowest gap (at most a twentieth of a decade) either
            // side, or 0.45 of a series' slot where that is less.
            let (cl, cr) = if c.log_x {
                let f = 10f64.powf((0.05 * l.log_step.min(1.0)).min(0.45 * log_slot));
                (x / f, x * f)
            } else {
                (x - cap, x + cap)
            };
            let caps = [(!zero_min).then_some(lo), Some(p.hi)];
            for yv in caps.into_iter().flatten() {
                chart
                    .draw_series(std::iter::once(PathElement::new(
                        vec![(cl, yv), (cr, yv)],
                        st,
                    )))
                    .map_err(e)?;
            }
        }
    }
    draw_marker(chart, &pts, s.style, col)?;
    // A value of 0 has no place on a log axis: its marker sits on the axis's floor, which
    // would read as a small positive value, so `0` is written beside it.
    if c.log_y {
        for &(x, _) in pts.iter().filter(|p| p.1 <= 0.0) {
            chart
                .draw_series(std::iter::once(
                    EmptyElement::at((x, y0))
                        + Text::new("0", (14, -30), l.tick_style.clone().color(&col)),
                ))
                .map_err(e)?;
        }
    }
    Ok(())
}

/// Draws the theory lines, dashed. They run flat across the band of side-by-side points at
/// each x, so that a point on the theory sits on its line wherever the dodge put it.
fn draw_theory<DB: DrawingBackend, X: Axis, Y: Axis>(
    chart: &mut ChartContext<DB, Cartesian2d<X, Y>>,
    l: &Layout,
) -> std::result::Result<(), String> {
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let c = l.c;
    let (x0, x1) = l.x;
    let k = l.k;
    let band = (k >= 2.0).then(|| (l.dodge(0), l.dodge(k as usize - 1)));
    let shift = |x: f64, d: f64| l.shift(x, d);
    let shift_fn: &dyn Fn(f64, f64) -> f64 = &shift;
    // Where the points are not joined (each x other positions), neither is the theory: a flat
    // stroke across each x's band (the lines drawn `across` still span).
    let spans = !c.apart && (c.lines || c.bars || c.categories.is_some());
    // A theory line of one point spans the x range only on a chart of one x (the no-table
    // reference and the ratio-1 line always do): where the other x values have no theory (a
    // budget stopped minimax deeper), drawn across them it would stand for theory it does not
    // have.
    let mut xs = c.series.iter().chain(&c.theory).flat_map(|s| &s.points);
    let one_x = xs.next().is_none_or(|p| xs.all(|q| q.x == p.x));
    for s in &c.theory {
        let (col, (dash, gap)) = dashed_style(s.style);
        let alone = s.points.len() == 1 && !one_x && !s.across;
        let runs: Vec<Vec<(f64, f64)>> = if s.across || (spans && !alone) {
            vec![dashed_points(s, x0, x1, band.map(|b| (b, shift_fn)))]
        } else {
            let (lo, hi) = band.unwrap_or((-0.18 * l.step, 0.18 * l.step));
            s.points
                .iter()
                .map(|p| {
                    vec![
                        (l.shift(p.x, lo).clamp(x0, x1), p.y),
                        (l.shift(p.x, hi).clamp(x0, x1), p.y),
                    ]
                })
                .collect()
        };
        for pts in runs {
            chart
                .draw_series(DashedLineSeries::new(
                    pts,
                    dash,
                    gap,
                    ShapeStyle {
                        color: col.to_rgba(),
                        filled: false,
                        stroke_width: 3,
                    },
                ))
                .map_err(e)?;
        }
    }
    Ok(())
}

/// Draws `c`'s title (with its facet) at the top of `area`, in its own band so that the top
/// tick label never runs into it, and returns the rest of `area`.
fn draw_title<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    area: &DrawingArea<DB, Shift>,
    c: &Chart,
) -> std::result::Result<DrawingArea<DB, Shift>, String> {
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let title = if c.facet.is_empty() {
        c.title.clone()
    } else {
        format!("{} ({})", c.title, c.facet)
    };
    // A long title (a long `[report] title`, long facet values) shrinks a little, then takes
    // two lines, broken at the space that best balances them, then shrinks again: it does not
    // run off the canvas. The narrowest font is the last resort.
    let fits = |text: &str, px: u32| {
        let style = TextStyle::from((FAMILY, px).into_font());
        root.estimate_text_size(text, &style)
            .map_or(true, |(w, _)| w + 100 <= WIDTH)
    };
    let (lines, title_px) = title_lines(&title, fits);
    // The title in its own band, so the top tick label never runs into it.
    let n = lines.len() as u32;
    let line_h = title_px + 8;
    let (band, plot) = area.split_vertically(n * line_h + 20);
    for (i, line) in lines.iter().enumerate() {
        band.draw(&Text::new(
            line.clone(),
            (
                (WIDTH / 2) as i32,
                (10 + line_h / 2 + i as u32 * line_h) as i32,
            ),
            TextStyle::from((FAMILY, title_px).into_font())
                .pos(Pos::new(HPos::Center, VPos::Center)),
        ))
        .map_err(e)?;
    }
    Ok(plot)
}

/// The lines of a title and their font size: one line at the largest size from TITLE_PX down
/// to 28 px that `fits`, else two lines broken at the space that leaves the longer one
/// shortest, at the largest size down to 20 px at which both fit (20 px when none does). A
/// line that does not fit even then (a facet of an `explicit:` ordering of every move of a
/// chess position) loses its middle to a `…`: report.md names the facet in full.
pub(super) fn title_lines(title: &str, fits: impl Fn(&str, u32) -> bool) -> (Vec<String>, u32) {
    let (lines, px) = title_lines_uncut(title, &fits);
    let lines = lines
        .into_iter()
        .map(|line| cut_to_fit(line, |t| fits(t, px)))
        .collect();
    (lines, px)
}

/// `line` as it is when it `fits`, else its start and its end with `…` between, as many
/// characters as fit (the start one longer when they are odd). The end stays: it is where a
/// facet's value and a series' last values are, which tell charts and series apart.
pub(super) fn cut_to_fit(line: String, fits: impl Fn(&str) -> bool) -> String {
    if fits(&line) {
        return line;
    }
    let chars: Vec<char> = line.chars().collect();
    let cut = |n: usize| {
        let head: String = chars[..n.div_ceil(2)].iter().collect();
        let tail: String = chars[chars.len() - n / 2..].iter().collect();
        format!("{}…{}", head.trim_end(), tail.trim_start())
    };
    // The most characters kept that fit with the ellipsis (a fit is monotone in the count).
    let (mut lo, mut hi) = (0, chars.len() - 1);
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if fits(&cut(mid)) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    cut(lo)
}

/// `title_lines` before any line is cut.
fn title_lines_uncut(title: &str, fits: &impl Fn(&str, u32) -> bool) -> (Vec<String>, u32) {
    let sizes = |min: u32| (min..=TITLE_PX).rev().step_by(2);
    if let Some(px) = sizes(28).find(|&px| fits(title, px)) {
        return (vec![title.to_string()], px);
    }
    // A space's byte offset, keyed by the longer side's length in characters.
    let total = title.chars().count();
    let split = title
        .char_indices()
        .enumerate()
        .filter(|(_, (_, c))| *c == ' ')
        .min_by_key(|&(k, _)| k.max(total - k - 1))
        .map(|(_, (i, _))| i);
    let Some(i) = split else {
        let px = sizes(20).find(|&px| fits(title, px)).unwrap_or(20);
        return (vec![title.to_string()], px);
    };
    let (a, b) = (title[..i].to_string(), title[i + 1..].to_string());
    let px = sizes(20)
        .find(|&px| fits(&a, px) && fits(&b, px))
        .unwrap_or(20);
    (vec![a, b], px)
}

/// The side-by-side band around each x: the first and last series' dodge, and the function
/// that moves an x by a dodge.
type Band<'a> = ((f64, f64), &'a dyn Fn(f64, f64) -> f64);

/// The points of theory line `s`, drawn dashed: a line of one value (a single point on a
/// chart of one x, the no-table reference, the ratio-1 line) runs across the x range [x0,
/// x1]; otherwise, with a `band`, the line runs flat across it at each x; flat stretches keep
/// only their ends (a thick dashed polyline bends at every point, and a bend between two flat
/// segments draws a notch).
fn dashed_points(s: &Series, x0: f64, x1: f64, band: Option<Band>) -> Vec<(f64, f64)> {
    let mut pts: Vec<(f64, f64)> = s.points.iter().map(|p| (p.x, p.y)).collect();
    let y = pts[0].1;
    if (pts.len() == 1 || s.across) && pts.iter().all(|p| p.1 == y) {
        // A single point (on a chart of one x), or a line drawn across: across the x range.
        pts = vec![(x0, y), (x1, y)];
    } else if let Some(((lo, hi), shift)) = band {
        // Flat from the first dodged point at each x to the last (within the x range).
        pts = pts
            .iter()
            .flat_map(|&(x, y)| {
                [
                    (shift(x, lo).clamp(x0, x1), y),
                    (shift(x, hi).clamp(x0, x1), y),
                ]
            })
            .collect();
    }
    let flat = |a: f64, b: f64| (a - b).abs() <= 1e-12 * a.abs().max(b.abs());
    pts.iter()
        .enumerate()
        .filter(|&(k, p)| {
            k == 0 || k + 1 == pts.len() || !(flat(pts[k - 1].1, p.1) && flat(p.1, pts[k + 1].1))
        })
        .map(|(_, p)| *p)
        .collect()
}

/// The stretches of consecutive measured points, budget points and `breaks` (x values with no
/// point) between them breaking them, each of two points or more: drawn as one line each, x
/// mapped by `x`.
fn joined(points: &[Point], breaks: &[f64], x: impl Fn(f64) -> f64) -> Vec<Vec<(f64, f64)>> {
    let mut runs: Vec<Vec<(f64, f64)>> = Vec::new();
    let mut run: Vec<(f64, f64)> = Vec::new();
    let mut last: Option<f64> = None;
    for p in points {
        let broken = last.is_some_and(|a| breaks.iter().any(|&b| a < b && b < p.x));
        if p.budget || broken {
            runs.push(std::mem::take(&mut run));
        }
        if !p.budget {
            run.push((x(p.x), p.y));
        }
        last = Some(p.x);
    }
    runs.push(run);
    runs.retain(|r| r.len() > 1);
    runs
}
