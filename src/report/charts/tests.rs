use super::axes::{
    canvas_height, log_ticks, log_x_ticks, plot_height, sci, si, vertical_labels, wide_log,
    X_LABEL_AREA,
};
use super::legend::{legend_layout, LegendEntry};
use super::plan::{assign_styles, cmp_natural, Chart, Layout, Point, Series};
use super::style::{color, marker_kind, marker_outline};
use super::*;
use crate::experiment::config::ChartKind;

#[test]
fn categories_compare_their_numbers_as_numbers() {
    let mut v = vec![
        "strong:1:1",
        "strong:0.1:0.1",
        "random",
        "strong:0:0",
        "strong:0.9:0.9",
        "oracle-best",
    ];
    v.sort_by(|a, b| cmp_natural(a, b));
    assert_eq!(
        v,
        [
            "oracle-best",
            "random",
            "strong:0:0",
            "strong:0.1:0.1",
            "strong:0.9:0.9",
            "strong:1:1"
        ]
    );
    assert!(cmp_natural("9", "10").is_lt());
    assert!(cmp_natural("", "correct").is_lt());
}

fn category_chart(labels: &[&str]) -> Chart {
    let points = labels
        .iter()
        .enumerate()
        .map(|(i, l)| Point {
            x: i as f64,
            x_label: l.to_string(),
            y: 10.0 + i as f64,
            lo: 10.0,
            hi: 20.0,
            budget: false,
            counted: None,
            runs: 1,
        })
        .collect();
    Chart {
        kind: ChartKind::Nodes,
        stem: "nodes".into(),
        title: "Nodes".into(),
        facet: String::new(),
        x_title: "solver".into(),
        y_title: "nodes".into(),
        series: vec![Series {
            label: "all runs".into(),
            key: vec![],
            points,
            breaks: vec![],
            style: 0,
            across: false,
        }],
        theory: vec![],
        theory_kinds: vec![],
        log_x: false,
        log_y: true,
        whiskers: true,
        categories: Some(labels.iter().map(|l| l.to_string()).collect()),
        lines: false,
        apart: false,
        bars: false,
        x_column: "solver".into(),
        series_columns: vec![],
        no_minimal: vec![],
        no_ebf: vec![],
        all_stopped: vec![],
        shared_y: None,
        y_unit: "",
    }
}

/// Twelve series get twelve different markers, and a series' (colour, marker) pair
/// repeats only after 156 series.
#[test]
fn series_markers_and_colours_do_not_repeat_early() {
    let marks: Vec<(usize, bool)> = (0..12).map(marker_kind).collect();
    for (i, a) in marks.iter().enumerate() {
        assert!(!marks[..i].contains(a), "marker {i} repeats");
    }
    let looks: Vec<((usize, bool), RGBColor)> =
        (0..156).map(|i| (marker_kind(i), color(i))).collect();
    for (i, a) in looks.iter().enumerate() {
        assert!(
            !looks[..i].contains(a),
            "series {i} looks like an earlier one"
        );
    }
    // Every shape but the circle has an outline to stroke when hollow.
    for shape in 1..6 {
        assert!(marker_outline(shape).len() >= 3);
    }
}

/// The SVG asks for the font its text was measured with, then falls back.
#[test]
fn svg_text_names_dejavu_first() {
    let svg = render_svg(&category_chart(&["a", "b"])).unwrap();
    assert!(svg.contains("font-family=\"DejaVu Sans, Verdana, sans-serif\""));
    assert!(!svg.contains("font-family=\"sans-serif\""));
}

/// A series keeps its colour and marker in a chart that leaves another series out (as
/// `qnodes` leaves out runs without quiescence).
#[test]
fn a_series_looks_the_same_in_every_chart() {
    let series = |labels: &[&str]| -> Vec<Series> {
        labels
            .iter()
            .map(|l| Series {
                label: l.to_string(),
                key: vec![l.to_string()],
                points: vec![],
                breaks: vec![],
                style: 99,
                across: false,
            })
            .collect()
    };
    let mut all = category_chart(&["a"]);
    all.series_columns = vec!["quiescence".into()];
    let mut some = all.clone();
    all.series = series(&["off", "on,checks", "on,plain"]);
    some.series = series(&["on,checks", "on,plain"]);
    let mut charts = vec![some, all];
    assign_styles(&mut charts, &Layout::default());
    let style = |c: &Chart, l: &str| c.series.iter().find(|s| s.label == l).unwrap().style;
    for l in ["on,checks", "on,plain"] {
        assert_eq!(style(&charts[0], l), style(&charts[1], l));
    }
    assert_eq!(
        [
            style(&charts[1], "off"),
            style(&charts[1], "on,checks"),
            style(&charts[1], "on,plain")
        ],
        [0, 1, 2]
    );
}

/// Long category labels, written vertically, make the canvas taller by the room they need
/// beyond the usual label area, instead of taking it from the plot area (which six
/// technique sets of the Connect Four solver once squeezed to a strip); short ones leave
/// the height alone.
#[test]
fn vertical_labels_grow_the_canvas_not_shrink_the_plot() {
    let short = category_chart(&["a", "b", "c"]);
    let long = category_chart(&[
        "all",
        "null-window+tt",
        "null-window+win-check+bounds+tt",
        "null-window+win-check+non-losing+bounds",
        "null-window+win-check+non-losing+tt",
        "win-check+non-losing+bounds+tt",
    ]);
    register_font().unwrap();
    let mut sink = String::new();
    let root = SVGBackend::with_string(&mut sink, (WIDTH, PLOT_HEIGHT)).into_drawing_area();
    assert_eq!(vertical_labels(&root, &short), None);
    assert_eq!(plot_height(vertical_labels(&root, &short)), PLOT_HEIGHT);
    let widest = vertical_labels(&root, &long).expect("long labels are vertical");
    assert!(widest > X_LABEL_AREA, "{widest}");
    assert_eq!(
        plot_height(Some(widest)),
        PLOT_HEIGHT + widest + 75 - X_LABEL_AREA
    );
    // Same legend (one series), so the canvases differ by the labels' extra room only.
    assert_eq!(
        canvas_height(&long) - canvas_height(&short),
        widest + 75 - X_LABEL_AREA
    );
    assert!(render_png(&long).is_ok());
}

/// Many short series labels share a row even when a theory label is too wide for their
/// columns: the theory line gets a row of its own instead of forcing one column on all.
#[test]
fn a_long_theory_label_does_not_force_one_legend_column() {
    register_font().unwrap();
    let mut sink = String::new();
    let root = SVGBackend::with_string(&mut sink, (WIDTH, PLOT_HEIGHT)).into_drawing_area();
    let entry = |label: &str, marker: Option<usize>| LegendEntry {
        label: label.into(),
        color: color(0),
        dashed: marker.is_none().then_some((12, 6)),
        marker,
        budget: false,
    };
    let mut entries: Vec<LegendEntry> = (0..6)
        .map(|i| entry(&format!("alphabeta, fail-soft, s{i}"), Some(i)))
        .collect();
    entries.push(entry(
        "minimal tree (Knuth-Moore, all levels, b fitted to minimax/negamax)",
        None,
    ));
    entries.push(entry("no table", None));
    let l = legend_layout(&root, &entries);
    assert_eq!(
        l.cells,
        [
            (0, 0),
            (0, 1),
            (1, 0),
            (1, 1),
            (2, 0),
            (2, 1),
            (3, 0),
            (4, 0)
        ]
    );
    assert_eq!(l.rows(), 5);
    assert!(l.span <= WIDTH - 40 && l.span >= 2 * l.col_w, "{}", l.span);
    // Without series, the widest entry sets the column.
    let theory = legend_layout(&root, &entries[6..]);
    assert_eq!(theory.cells, [(0, 0), (1, 0)]);
}

/// Past a dozen decades every k-th decade is labelled (ten or so labels) and the light lines
/// are the decades; tick text past 1e15 and below 1e-4 is a power of ten.
#[test]
fn wide_log_ranges_and_huge_numbers() {
    let (bold, light) = log_ticks(1.0, 1e120);
    assert_eq!(bold.len(), 11, "{bold:?}");
    assert_eq!(bold[1], 1e12);
    assert_eq!(light.len(), 121);
    // Up to a dozen decades: a label per decade, as before.
    assert_eq!(log_ticks(1.0, 1e12).0.len(), 13);
    for (v, text) in [
        (1e15, "1e15"),
        (2.5e17, "2.5e17"),
        (1e120, "1e120"),
        (9.999e20, "1e21"),
        (-3e16, "-3e16"),
        (1e-300, "1e-300"),
        (5e-5, "5e-5"),
        (1e12, "1T"),
        (0.005, "0.005"),
        (999e12, "999T"),
    ] {
        assert_eq!(si(v), text, "{v}");
    }
    // On a wide log axis every label is a power of ten.
    assert!(wide_log(1.0, 1e13) && !wide_log(1.0, 1e12));
    assert_eq!(sci(1e12), "1e12");
    assert_eq!(sci(1.0), "1e0");
}

#[test]
fn log_ticks_of_a_bad_range_are_empty() {
    assert_eq!(log_ticks(0.0, 100.0), (vec![], vec![]));
    let (bold, _) = log_ticks(5.0, 50000.0);
    assert_eq!(bold, [10.0, 100.0, 1000.0, 10000.0]);
    assert_eq!(log_x_ticks(2.0, 20000.0, &[4.0, 16.0]).0, [4.0, 16.0]);
}

/// A title that fits stays one line at the largest size that fits; a longer one breaks at the
/// space that best balances its two lines; the size never goes below 20 px.
#[test]
fn long_titles_take_two_balanced_lines() {
    use super::draw::title_lines;
    // A stand-in for the font: 1 px per character and pixel of size, 1,000 px of room.
    let fits = |t: &str, px: u32| t.chars().count() as u32 * px <= 1000;
    assert_eq!(title_lines("short", fits), (vec!["short".to_string()], 38));
    // 30 characters: too long at 38 px (1,140), fits at 32 px (960).
    let t = "a".repeat(30);
    assert_eq!(title_lines(&t, fits), (vec![t.clone()], 32));
    // 47 characters fit no size down to 28 px (1,316): two lines of 23 and 23 at 38 px.
    let t = format!("{} {}", "b".repeat(23), "c".repeat(23));
    let (lines, px) = title_lines(&t, fits);
    assert_eq!(lines, vec!["b".repeat(23), "c".repeat(23)]);
    assert_eq!(px, 38);
    // The split balances the lines, not the first space.
    let (lines, _) = title_lines("x yyyyyyyyyyyyyyyyyy zzzzzzzzzzzzzzzzzzzzzzzzzz", fits);
    assert_eq!(
        lines,
        vec!["x yyyyyyyyyyyyyyyyyy", "zzzzzzzzzzzzzzzzzzzzzzzzzz"]
    );
    // No space: one line at the smallest size, its middle cut to fit (50 characters of 20 px:
    // 25 from the start, the `…`, 24 from the end).
    let t = format!("{}{}", "v".repeat(100), "w".repeat(100));
    let (lines, px) = title_lines(&t, fits);
    assert_eq!(px, 20);
    assert_eq!(
        lines,
        vec![format!("{}…{}", "v".repeat(25), "w".repeat(24))]
    );
    // Two lines, the second too long: only it is cut, and it keeps its end (the facet).
    let t = format!(
        "Nodes searched (ordering {} (branching=2)",
        "m,".repeat(100)
    );
    let (lines, px) = title_lines(&t, fits);
    assert_eq!(lines[0], "Nodes searched (ordering");
    assert!(lines[1].contains('…') && fits(&lines[1], px), "{lines:?}");
    assert!(lines[1].ends_with("(branching=2)"), "{lines:?}");
    assert!(!fits(&format!("{}m", lines[1]), px));
}

/// The Wilson score 95% interval of a share (Wilson 1927), checked against the closed form
/// evaluated independently (0 of 10: 0 to 0.2775; 5 of 10: 0.2366 to 0.7634): within [0, 1],
/// symmetric about 1/2.
#[test]
fn wilson_intervals_match_the_published_values() {
    use super::plan::wilson;
    let close = |a: f64, b: f64| (a - b).abs() < 5e-5;
    let (lo, hi) = wilson(0.0, 10.0);
    assert!(lo == 0.0 && close(hi, 0.2775), "{lo} {hi}");
    let (lo, hi) = wilson(0.5, 10.0);
    assert!(close(lo, 0.2366) && close(hi, 0.7634), "{lo} {hi}");
    let (lo, hi) = wilson(1.0, 10.0);
    assert!(
        close(lo, 0.7225) && close(hi, 1.0) && hi <= 1.0,
        "{lo} {hi}"
    );
    let (lo, hi) = wilson(0.2, 100.0);
    assert!(close(lo, 0.13337) && close(hi, 0.28883), "{lo} {hi}");
    assert_eq!(wilson(0.3, 0.0), (0.0, 1.0));
    // None of 1 to 1,000 runs: from 0 exactly; all of them: to 1 exactly (rounding left
    // 4.9e-17 for 0 of 3 and 0.9999999999999999 for 10 of 10).
    for n in 1..=1000 {
        assert_eq!(wilson(0.0, n as f64).0, 0.0, "0 of {n}");
        assert_eq!(wilson(1.0, n as f64).1, 1.0, "{n} of {n}");
    }
}

/// A dashed line's dash says its kind, and five lines of one kind look different before one
/// repeats.
#[test]
fn dashed_lines_keep_their_kind_and_differ_within_it() {
    use super::style::{dashed_style, LINE_KINDS};
    for kind in 0..LINE_KINDS {
        let looks: Vec<_> = (0..5)
            .map(|place| dashed_style(kind + LINE_KINDS * place))
            .collect();
        assert!(looks.iter().all(|l| l.1 == looks[0].1), "one dash per kind");
        for (a, la) in looks.iter().enumerate() {
            for lb in &looks[a + 1..] {
                assert_ne!(
                    la.0, lb.0,
                    "kind {kind}: two of its first five lines share a grey"
                );
            }
        }
    }
    let dashes: Vec<_> = (0..LINE_KINDS).map(|k| dashed_style(k).1).collect();
    assert!(dashes[0] != dashes[1] && dashes[1] != dashes[2] && dashes[0] != dashes[2]);
}

/// No series colour can be read as a theory line's: every one of the 13 is a colour, far from
/// black and the greys the dashed lines take (series 7 was black, as the minimal tree is).
#[test]
fn series_colours_are_not_theory_greys() {
    use super::style::{dashed_style, LINE_KINDS};
    let greys: Vec<RGBColor> = (0..LINE_KINDS * 5).map(|i| dashed_style(i).0).collect();
    for i in 0..13 {
        let RGBColor(r, g, b) = color(i);
        let spread = r.max(g).max(b) - r.min(g).min(b);
        assert!(spread >= 80, "series {i}: {:?} is nearly grey", (r, g, b));
        assert!(!greys.contains(&color(i)), "series {i}");
    }
}

/// One x value gets one tick, at that value: none half a step either side, where no whole
/// number is to label it.
#[test]
fn a_single_x_value_gets_one_tick() {
    let mut c = category_chart(&["4"]);
    c.categories = None;
    c.series[0].points[0].x = 4.0;
    let svg = render_svg(&c).unwrap();
    // The mesh's bold lines (one per tick) that run vertically: x ticks.
    let x_ticks = svg
        .lines()
        .filter(|l| l.starts_with("<line") && l.contains("stroke=\"#D2D2D2\""))
        .filter(|l| {
            let attr = |name: &str| l.split(&format!(" {name}=\"")).nth(1)?.split('"').next();
            attr("x1") == attr("x2")
        })
        .count();
    assert_eq!(x_ticks, 1, "{svg}");
    assert!(svg.lines().any(|l| l.trim() == "4"), "{svg}");
}

/// One x value with a point, but a theory line that also stands at x = 8 (a group a budget
/// left without a point): whole-number ticks across the range, 2 and 8 labelled, not one tick
/// at the middle of the axis, where no x is.
#[test]
fn a_single_x_value_beside_wider_theory_gets_whole_ticks() {
    let mut c = category_chart(&["2"]);
    c.categories = None;
    c.series[0].points[0].x = 2.0;
    let mut theory = c.series[0].clone();
    theory.label = "full tree".into();
    theory.points.push(theory.points[0].clone());
    theory.points[1].x = 8.0;
    c.theory = vec![theory];
    let svg = render_svg(&c).unwrap();
    let labels: Vec<&str> = svg
        .lines()
        .map(str::trim)
        .filter(|l| l.len() == 1 && l.chars().all(|ch| ch.is_ascii_digit()))
        .collect();
    for want in ["2", "5", "8"] {
        assert!(labels.contains(&want), "{labels:?}");
    }
}

/// Depths 1 and 10: the room around each x and the side-by-side series follow a step of at
/// most 2 on whole numbers, not the gap of 9, so no series stands nearer another depth than
/// its own and the axis does not run to negative depths; a gap of 2 or less is kept.
#[test]
fn far_apart_whole_x_values_keep_series_near_their_x() {
    use super::axes::Frame;
    let mut c = category_chart(&["1", "10"]);
    c.categories = None;
    c.series[0].points[1].x = 10.0;
    c.series[0].points[0].x = 1.0;
    let f = Frame::of(&c);
    assert_eq!(f.step, 2.0);
    assert!(f.x0 >= 0.0, "{}", f.x0);
    c.series[0].points[1].x = 3.0;
    assert_eq!(Frame::of(&c).step, 2.0);
    // Numbers not whole: at most a quarter of their range.
    c.series[0].points[0].x = 0.5;
    c.series[0].points[1].x = 100.5;
    assert_eq!(Frame::of(&c).step, 25.0);
}

/// A legend label too long for the canvas even at the smallest type is cut and ends in `…`.
#[test]
fn a_legend_label_past_the_canvas_is_cut() {
    let mut c = category_chart(&["a", "b"]);
    c.series[0].label = "very long label ".repeat(300);
    let svg = render_svg(&c).unwrap();
    let line = svg
        .lines()
        .find(|l| l.contains("very long label"))
        .expect("the label is drawn");
    assert!(line.contains('…'), "{line}");
    assert!(line.matches("very long label").count() < 30, "{line}");
}

/// A value of 0 on a log y axis: its marker sits on the floor, and a `0` beside it says it is
/// no small positive value.
#[test]
fn a_zero_on_a_log_axis_is_labelled_0() {
    let zeros = |y: f64| {
        let mut c = category_chart(&["a", "b"]);
        c.whiskers = false;
        c.series[0].points[0].y = y;
        let svg = render_svg(&c).unwrap();
        svg.lines().filter(|l| l.trim() == "0").count()
    };
    assert_eq!(zeros(0.0), zeros(5.0) + 1);
}

/// An axis of whole values from 0 up (depth 0) labels no negative tick: the room left of 0 is
/// for the series set side by side there.
#[test]
fn an_axis_from_0_labels_no_negative_tick() {
    let mut c = category_chart(&["0", "3"]);
    c.categories = None;
    c.series[0].points[1].x = 3.0;
    let svg = render_svg(&c).unwrap();
    assert!(svg.lines().any(|l| l.trim() == "0"), "{svg}");
    assert!(!svg.lines().any(|l| l.trim() == "-1"), "{svg}");
}

/// More categories than fit a label each side by side (their vertical labels' height passes
/// the axis's width) get every k-th label, from the first: none overlap, and every label
/// drawn is a category's.
#[test]
fn crowded_category_labels_are_thinned() {
    let count = |n: usize| {
        let labels: Vec<String> = (0..n).map(|i| format!("c{i:03}")).collect();
        let refs: Vec<&str> = labels.iter().map(String::as_str).collect();
        let svg = render_svg(&category_chart(&refs)).unwrap();
        labels
            .iter()
            .filter(|l| svg.lines().any(|s| s.trim() == l.as_str()))
            .count()
    };
    // A few categories are labelled side by side; 40 vertically, each; 120 every k-th.
    assert_eq!(count(5), 5);
    assert_eq!(count(40), 40);
    let shown = count(120);
    assert!((30..120).contains(&shown), "{shown}");
}

/// A theory line with a point at one x of several (minimax finished at depth 7, stopped at
/// 8 and 9) is a stroke at that x, not a line across the chart standing for theory the other
/// depths do not have; on a chart of one x it spans the range as before.
#[test]
fn a_theory_line_of_one_point_stays_at_its_x() {
    let mut c = category_chart(&["7", "8", "9"]);
    c.categories = None;
    c.lines = true;
    for (i, p) in c.series[0].points.iter_mut().enumerate() {
        p.x = 7.0 + i as f64;
    }
    let mut theory = c.series[0].clone();
    theory.label = "minimal tree".into();
    theory.points.truncate(1);
    theory.points[0].y = 12.0;
    theory.style = 1; // the minimal tree's dashes, in black
    c.theory = vec![theory];
    // The horizontal extent of the thick strokes of `colour` in the plot (above its x axis,
    // at y = 707: the legend's swatches are below it): the theory's dashes, the series' line.
    let extent = |svg: &str, colour: &str| {
        let xs: Vec<f64> = svg
            .lines()
            .filter(|l| l.contains(&format!("stroke=\"{colour}\" stroke-width=\"3\" points=")))
            .flat_map(|l| {
                let pts = l
                    .split(" points=\"")
                    .nth(1)
                    .unwrap()
                    .split('"')
                    .next()
                    .unwrap();
                pts.split_whitespace()
                    .map(|xy| {
                        let (x, y) = xy.split_once(',').unwrap();
                        (x.parse::<f64>().unwrap(), y.parse::<f64>().unwrap())
                    })
                    .collect::<Vec<_>>()
            })
            .filter(|&(_, y)| y < 700.0)
            .map(|(x, _)| x)
            .collect();
        let lo = xs.iter().cloned().fold(f64::INFINITY, f64::min);
        let hi = xs.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        hi - lo
    };
    let svg = render_svg(&c).unwrap();
    let (theory, series) = (extent(&svg, "#000000"), extent(&svg, "#0072B2"));
    assert!(
        theory > 0.0 && theory < series / 2.0,
        "{theory} vs {series}\n{svg}"
    );
    // One x: across the range, wider than the stroke above.
    c.series[0].points.truncate(1);
    let wide = extent(&render_svg(&c).unwrap(), "#000000");
    assert!(wide > 2.0 * theory, "{wide} vs {theory}");
}

/// Eight series side by side at one x, each stopped by a budget there: their floor bars stay
/// apart (narrower than the 24 px a lone series' bar takes), and so do their whisker caps.
#[test]
fn budget_marks_and_caps_of_many_series_stay_apart() {
    let mut c = category_chart(&["a"]);
    c.categories = None;
    c.lines = true;
    let template = c.series[0].clone();
    c.series = (0..8)
        .map(|i| {
            let mut s = template.clone();
            s.label = format!("s{i}");
            s.style = i;
            let at = |x: f64, budget: bool| Point {
                x,
                budget,
                y: 100.0,
                lo: 50.0,
                hi: 200.0,
                ..template.points[0].clone()
            };
            s.points = vec![at(1.0, false), at(2.0, true)];
            s
        })
        .collect();
    register_font().unwrap();
    let mut svg = String::new();
    {
        let root =
            SVGBackend::with_string(&mut svg, (WIDTH, canvas_height(&c))).into_drawing_area();
        draw(&root, &c).unwrap();
    }
    // Horizontal segments of stroke width `w`: (y, left, right), by their left end.
    let segments = |w: &str| {
        let mut out: Vec<(i64, i64, i64)> = svg
            .split("<polyline")
            .skip(1)
            .filter(|p| p.contains(&format!("stroke-width=\"{w}\"")))
            .filter_map(|p| {
                let pts = p.split("points=\"").nth(1)?.split('"').next()?;
                let xy: Vec<(i64, i64)> = pts
                    .split_whitespace()
                    .map(|q| {
                        let (x, y) = q.split_once(',').unwrap();
                        (x.parse().unwrap(), y.parse().unwrap())
                    })
                    .collect();
                (xy.len() == 2 && xy[0].1 == xy[1].1 && xy[0].0 < xy[1].0)
                    .then(|| (xy[0].1, xy[0].0, xy[1].0))
            })
            .collect();
        out.sort_by_key(|&(y, l, _)| (y, l));
        out
    };
    // The segments of width `w` in rows of `n` at one y, `rows` such rows, each row's
    // segments apart from one another.
    let rows_apart = |w: &str, n: usize, rows: usize, what: &str| {
        let all = segments(w);
        let kept: Vec<_> = all
            .iter()
            .filter(|s| all.iter().filter(|o| o.0 == s.0).count() == n)
            .copied()
            .collect();
        assert_eq!(kept.len(), n * rows, "{what}: {all:?}");
        for p in kept.windows(2) {
            if p[0].0 == p[1].0 {
                assert!(p[0].2 < p[1].1, "{what} overlap: {p:?}");
            }
        }
        kept
    };
    // The floor bars (width 6): the eight in the plot share one y; the legend's is elsewhere.
    let bars = rows_apart("6", 8, 1, "floor bars");
    assert!(bars.iter().all(|b| b.2 - b.1 < 24), "{bars:?}");
    // The whisker caps (width 2), at both x: sixteen at the y of 50 and sixteen at 200.
    rows_apart("2", 16, 2, "whisker caps");
}

/// The circles' centres of `svg` (the legend's among them), as (x, y) pixels.
fn circle_centres(svg: &str) -> Vec<(f64, f64)> {
    svg.split("<circle")
        .skip(1)
        .filter_map(|c| {
            let num = |name: &str| -> Option<f64> {
                c.split(&format!("{name}=\""))
                    .nth(1)?
                    .split('"')
                    .next()?
                    .parse()
                    .ok()
            };
            Some((num("cx")?, num("cy")?))
        })
        .collect()
}

/// Equal points of several series at one x stand a marker apart (24 px) where the gap between
/// x values leaves room, or as near that as 0.6 of the gap allows: three series at eleven
/// evenly spaced categories (the hash-bits charts) stand 18 px apart (their equal points stood
/// 11 px apart and hid each other), four at seven table sizes on a log axis 19 px (10 px
/// before); and no marker stands outside the plot, even at one x with many series.
#[test]
fn series_side_by_side_stand_a_marker_apart() {
    // Every series drawn with the first marker, a circle, at y = 10 everywhere.
    let chart = |xs: &[f64], k: usize, log_x: bool| {
        let labels: Vec<String> = xs.iter().map(|x| x.to_string()).collect();
        let refs: Vec<&str> = labels.iter().map(String::as_str).collect();
        let mut c = category_chart(&refs);
        c.log_x = log_x;
        if log_x || xs.len() == 1 {
            c.categories = None;
        }
        let template = c.series[0].clone();
        c.series = (0..k)
            .map(|i| {
                let mut s = template.clone();
                s.label = format!("s{i}");
                for (p, &x) in s.points.iter_mut().zip(xs) {
                    (p.x, p.y, p.lo, p.hi) = (x, 10.0, 10.0, 10.0);
                }
                s
            })
            .collect();
        c
    };
    let cases: [(Vec<f64>, usize, bool, f64); 3] = [
        ((0..11).map(f64::from).collect(), 3, false, 17.0),
        ((1..=7).map(|i| 4f64.powi(i)).collect(), 4, true, 18.0),
        (vec![1000.0], 40, true, 0.0),
    ];
    for (xs, k, log_x, apart) in cases {
        let c = chart(&xs, k, log_x);
        let svg = render_svg(&c).unwrap();
        let plot_y = circle_centres(&svg)
            .iter()
            .map(|p| p.1)
            .fold(f64::INFINITY, f64::min);
        // The plot's circles (the legend's stand below them).
        let mut cx: Vec<f64> = circle_centres(&svg)
            .into_iter()
            .filter(|p| p.1 == plot_y)
            .map(|p| p.0)
            .collect();
        cx.sort_by(f64::total_cmp);
        assert_eq!(cx.len(), xs.len() * k, "{xs:?} k = {k}");
        // Within each x's band, neighbours a marker apart; the plot runs from the y axis (140
        // px of labels and the 16 px margin in) to 40 px short of the canvas's right edge.
        for band in cx.chunks(k) {
            for w in band.windows(2) {
                assert!(w[1] - w[0] >= apart, "{xs:?} k = {k}: {band:?}");
            }
        }
        let (left, right) = (156.0, f64::from(WIDTH - 40));
        assert!(
            cx.iter().all(|&x| x > left && x < right),
            "{xs:?} k = {k}: {cx:?}"
        );
    }
}
