//! Axes: where they run ([`Frame`]: the x and y ranges, with room for series set side by
//! side, whiskers and budget marks), the canvas's height, category labels written vertically,
//! log-scale ticks and tick text.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::legend::{legend_entries, legend_layout};
use super::plan::Chart;
use super::style::{LEGEND_ROW, PLOT_HEIGHT, TICK_PX, WIDTH};
use super::FAMILY;

/// Category labels that would run into each other side by side are written vertically: then
/// the widest label's length in pixels, else `None`.
pub(super) fn vertical_labels<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    c: &Chart,
) -> Option<u32> {
    let cats = c.categories.as_ref()?;
    let tick_style = TextStyle::from((FAMILY, TICK_PX).into_font());
    let widest = cats
        .iter()
        .map(|l| {
            root.estimate_text_size(l, &tick_style)
                .map(|(w, _)| w)
                .unwrap_or(0)
        })
        .max()
        .unwrap_or(0);
    let n = cats.len() as u32;
    (n > 0 && (widest + 24) * n > WIDTH - 200).then_some(widest)
}

/// Pixels of the x label area below the axis (tick labels and the axis title).
pub(super) const X_LABEL_AREA: u32 = 85;

/// The x label area for `vertical` (`vertical_labels`): the usual one, or room for the widest
/// label written vertically plus the axis title.
pub(super) fn x_label_area(vertical: Option<u32>) -> u32 {
    vertical.map_or(X_LABEL_AREA, |w| w + 75)
}

/// The height of the plot (title, axes, plot area), legend excluded: `PLOT_HEIGHT`, grown by
/// whatever vertical category labels need beyond the usual label area, so that long labels
/// never squeeze the plot area itself.
pub(super) fn plot_height(vertical: Option<u32>) -> u32 {
    PLOT_HEIGHT + x_label_area(vertical).saturating_sub(X_LABEL_AREA)
}

/// The canvas height of a chart: the plot plus its legend.
pub(super) fn canvas_height(c: &Chart) -> u32 {
    // Width estimates do not depend on the backend; use a throwaway SVG canvas.
    let mut sink = String::new();
    let root = SVGBackend::with_string(&mut sink, (WIDTH, PLOT_HEIGHT)).into_drawing_area();
    let rows = legend_layout(&root, &legend_entries(c)).rows();
    plot_height(vertical_labels(&root, c)) + (rows + 1) * LEGEND_ROW + 20
}

/// Labelled and grid-only ticks of a log axis over [lo, hi]: powers of 10 when they give at
/// least four labels, else 1-2-5 steps, else every integer multiple of a power of 10.
pub(super) fn log_ticks(lo: f64, hi: f64) -> (Vec<f64>, Vec<f64>) {
    if !(lo > 0.0 && hi > lo && hi.is_finite()) {
        return (vec![], vec![]);
    }
    let (a, b) = (lo.log10().floor() as i32, hi.log10().ceil() as i32);
    let pick = |ms: &[f64]| -> Vec<f64> {
        (a..=b)
            .flat_map(|k| ms.iter().map(move |m| m * 10f64.powi(k)))
            .filter(|v| *v >= lo && *v <= hi)
            .collect()
    };
    // Beyond a dozen decades (uniform trees of large b, whose full tree reaches 1e120), a
    // label per decade would overlap and a light line per 2..9 would blacken the plot: every
    // k-th decade is labelled (the multiples of k), and the light lines are the decades.
    let decades = b - a;
    if wide_log(lo, hi) {
        let k = (decades + 9) / 10;
        let powers = |step: i32| -> Vec<f64> {
            (a..=b)
                .filter(|e| e.rem_euclid(step) == 0)
                // As written, `1e72`: the nearest float, where powi drifts (1.0000000000000001e72).
                .filter_map(|e| format!("1e{e}").parse::<f64>().ok())
                .filter(|v| *v >= lo && *v <= hi)
                .collect()
        };
        return (powers(k), powers(1));
    }
    let all: Vec<f64> = (1..10).map(f64::from).collect();
    let mut bold = pick(&[1.0]);
    if bold.len() < 4 {
        bold = pick(&[1.0, 2.0, 5.0]);
    }
    if bold.len() < 4 {
        bold = pick(&all);
    }
    (bold, pick(&all))
}

/// Ticks of a log x axis: the data's own x values when there are few (table sizes 16, 256,
/// 4096 rather than 10, 100, 1000), else [`log_ticks`].
pub(super) fn log_x_ticks(lo: f64, hi: f64, xs: &[f64]) -> (Vec<f64>, Vec<f64>) {
    let (bold, light) = log_ticks(lo, hi);
    if xs.len() <= 12 && xs.iter().all(|x| *x > 0.0) {
        (xs.to_vec(), light)
    } else {
        (bold, light)
    }
}

/// Compact tick text: 1500 -> 1.5k, 2e6 -> 2M; from 1e15 up and below 1e-4, powers of ten
/// (2.5e17, 1e-300), which the prefixes would write as long runs of digits or float noise.
pub(super) fn si(v: f64) -> String {
    let a = v.abs();
    if a >= 1e15 || (a > 0.0 && a < 1e-4) {
        return sci(v);
    }
    let (d, suf) = if a >= 1e12 {
        (1e12, "T")
    } else if a >= 1e9 {
        (1e9, "G")
    } else if a >= 1e6 {
        (1e6, "M")
    } else if a >= 1e4 {
        (1e3, "k")
    } else {
        (1.0, "")
    };
    let x = v / d;
    let t = if a > 0.0 && a < 0.01 {
        // Below a hundredth (milliseconds of a small search): two significant digits, not 0.
        let places = (-a.log10()).ceil() as usize + 1;
        let s = format!("{x:.places$}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else if (x - x.round()).abs() < 1e-9 {
        format!("{}", x.round() as i64)
    } else {
        let s = format!("{x:.2}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    };
    format!("{t}{suf}")
}

/// Tick text as a power of ten, the mantissa to two decimals: 2.5e17, 1e-300, 1e0.
pub(super) fn sci(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return format!("{v}");
    }
    // Rust's exponent form rounds the mantissa (9.999e20 -> 1.00e21); its zeros go.
    let text = format!("{v:.2e}");
    let (m, e) = text.split_once('e').unwrap_or((&text, "0"));
    format!("{}e{e}", m.trim_end_matches('0').trim_end_matches('.'))
}

/// Whether a log axis from `lo` to `hi` spans more than a dozen decades: its labels are then
/// every k-th decade (`log_ticks`), all written as powers of ten.
pub(super) fn wide_log(lo: f64, hi: f64) -> bool {
    lo > 0.0 && hi > lo && (hi / lo).log10() > 12.0
}

/// Where the axes run: the series' distinct x values, the smallest step between them, and the
/// x and y ranges drawn, with room for series set side by side, whiskers and budget marks.
pub(super) struct Frame {
    pub(super) xs: Vec<f64>,
    pub(super) step: f64,
    pub(super) x0: f64,
    pub(super) x1: f64,
    pub(super) y0: f64,
    pub(super) y1: f64,
}

/// The y range of a chart's data (points, whiskers when drawn, theory lines: their values
/// only, as drawn; on a log axis the positive values only; a bar chart's base, 1), or `None`
/// when it has none.
pub(super) fn y_data(c: &Chart) -> Option<(f64, f64)> {
    let (mut ymin, mut ymax) = (f64::INFINITY, f64::NEG_INFINITY);
    let drawn = c.series.iter().map(|s| (s, c.whiskers));
    for (s, whiskers) in drawn.chain(c.theory.iter().map(|s| (s, false))) {
        for p in &s.points {
            let ys = if whiskers {
                [p.lo, p.hi, p.y]
            } else {
                [p.y; 3]
            };
            for y in ys {
                // An overflowed theory value (b^d past f64) has no place on an axis.
                if y.is_finite() && (!c.log_y || y > 0.0) {
                    ymin = ymin.min(y);
                    ymax = ymax.max(y);
                }
            }
        }
    }
    if c.bars && ymin.is_finite() {
        // Bars rise from 1 (the minimal tree), with or without the theory line drawn there.
        (ymin, ymax) = (ymin.min(1.0), ymax.max(1.0));
    }
    ymin.is_finite().then_some((ymin, ymax))
}

impl Frame {
    pub(super) fn of(c: &Chart) -> Frame {
        let all = c.series.iter().chain(&c.theory).flat_map(|s| &s.points);
        let (mut xmin, mut xmax) = (f64::INFINITY, f64::NEG_INFINITY);
        for p in all {
            xmin = xmin.min(p.x);
            xmax = xmax.max(p.x);
        }
        // Every category stands on the axis, one with no point too (the false-hits chart's
        // key-bit counts with no false hit); elsewhere each category has a point.
        if let Some(n) = c.categories.as_ref().map(Vec::len).filter(|&n| n > 0) {
            xmin = xmin.min(0.0);
            xmax = xmax.max((n - 1) as f64);
        }
        // Facets of one figure: the range over all of them.
        let (ymin, ymax) = c.shared_y.or_else(|| y_data(c)).unwrap_or((1.0, 10.0));
        let mut xs: Vec<f64> = c
            .series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.x))
            .collect();
        xs.sort_by(f64::total_cmp);
        xs.dedup();
        let step = xs
            .windows(2)
            .map(|w| w[1] - w[0])
            .fold(f64::INFINITY, f64::min);
        let step = if step.is_finite() && step > 0.0 {
            step
        } else {
            1.0
        };
        // The step that sets the room around each x and how far apart series stand there. A
        // wide gap between few x values (depths 1 and 10) would set them so far apart that a
        // point read off the axis at another x (depth 0 and 2 for depth 1), and the axis
        // would run to negative depths: on whole numbers it is at most 2 (series then stand
        // within 0.36 of their x, nearer it than the next whole number), and otherwise at
        // most a quarter of the x range. (Categories stand a unit apart; a log axis sets them
        // apart in decades.)
        let numbers = c.categories.is_none() && !c.log_x;
        let range = xs.last().zip(xs.first()).map_or(0.0, |(b, a)| b - a);
        let step = if numbers && xs.iter().all(|x| x.fract() == 0.0) {
            step.min(2.0)
        } else if numbers && range > 0.0 {
            step.min(0.25 * range)
        } else {
            step
        };
        let (x0, x1) = if c.log_x {
            // 0.2 decades either side (a factor 1.6), or 0.6 of the narrowest gap between x
            // values where that is less, as on a linear axis (depths 6 to 9 on a log axis
            // would otherwise fill a third of its width), but at least 2% of the range (depths
            // 1 to 30: the narrowest gap, 29 to 30, is a seventieth of a decade). Series set
            // side by side, and bars, reach at most 0.4 of that gap either side of their x.
            let gap = xs
                .windows(2)
                .filter(|w| w[0] > 0.0)
                .map(|w| (w[1] / w[0]).log10())
                .fold(f64::INFINITY, f64::min);
            let range = if xmin > 0.0 {
                (xmax / xmin).log10()
            } else {
                0.0
            };
            let pad = 10f64.powf((0.6 * gap).max(0.02 * range).min(1.6f64.log10()));
            (xmin / pad, xmax * pad)
        } else if xmin > 0.0 && xmin >= 0.32 * step {
            // A positive column gets no negative ticks, where that leaves room for the series
            // set side by side around its first x (at most 0.3 steps to the left).
            ((xmin - 0.6 * step).max(0.0), xmax + 0.6 * step)
        } else {
            (xmin - 0.6 * step, xmax + 0.6 * step)
        };
        // Room above for the up arrow of a budget mark.
        let budget = c.series.iter().flat_map(|s| &s.points).any(|p| p.budget);
        let (y0, y1) = if c.log_y {
            (ymin / 2.0, ymax * if budget { 5.0 } else { 2.0 })
        } else if c.kind.share_column().is_some() {
            // Percent of runs: from 0, and room above a chart of zeros. A little room below
            // 0, so that points at 0 (often most of them) stand clear of the axis and its
            // tick labels; too little for a tick below 0.
            let top = (ymax * 1.12).clamp(5.0, 105.0);
            (-0.03 * top, top)
        } else {
            let pad = ((ymax - ymin) * 0.08).max(0.05 * ymax.abs()).max(1e-9);
            (
                (ymin - pad).max(0.0),
                ymax + if budget { 2.5 * pad } else { pad },
            )
        };
        // Padding a range that reaches f64's limit would leave it infinite, on which plotters'
        // tick search never ends: keep every bound finite.
        let finite = |v: f64| v.clamp(-f64::MAX, f64::MAX);
        Frame {
            xs,
            step,
            x0: finite(x0),
            x1: finite(x1),
            y0: finite(y0),
            y1: finite(y1),
        }
    }
}
