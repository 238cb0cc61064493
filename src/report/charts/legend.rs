//! The legend below the plot: its entries, their layout in rows and columns, and its
//! drawing.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::plan::Chart;
use super::style::{
    bar_face, budget_mark, color, dashed_style, legend_marker, LEGEND_PX, LEGEND_ROW, SWATCH, WIDTH,
};
use super::FAMILY;

pub(super) struct LegendEntry {
    pub(super) label: String,
    pub(super) color: RGBColor,
    /// Dash length and gap of a dashed line's swatch.
    pub(super) dashed: Option<(u32, u32)>,
    pub(super) marker: Option<usize>,
    /// The budget mark (a floor bar with an up arrow).
    pub(super) budget: bool,
}

/// The legend text of the budget mark.
pub const BUDGET_LABEL: &str = "≥ budget hit (lower bound)";

pub(super) fn legend_entries(c: &Chart) -> Vec<LegendEntry> {
    let mut v: Vec<LegendEntry> = c
        .series
        .iter()
        .map(|s| LegendEntry {
            label: s.label.clone(),
            color: color(s.style),
            dashed: None,
            marker: Some(s.style),
            budget: false,
        })
        .collect();
    v.extend(c.theory.iter().map(|s| LegendEntry {
        label: s.label.clone(),
        color: dashed_style(s.style).0,
        dashed: Some(dashed_style(s.style).1),
        marker: None,
        budget: false,
    }));
    if c.series.iter().flat_map(|s| &s.points).any(|p| p.budget) {
        v.push(LegendEntry {
            label: BUDGET_LABEL.into(),
            color: RGBColor(0, 0, 0),
            dashed: None,
            marker: None,
            budget: true,
        });
    }
    v
}

/// Where the legend's entries go: columns of `col_w` pixels, `span` pixels wide in all (the
/// columns, or a wider entry's own row), text at `px`, and each entry's (row, column), rows
/// counted from 0 below the heading.
pub(super) struct LegendLayout {
    pub(super) col_w: u32,
    pub(super) span: u32,
    pub(super) px: u32,
    pub(super) cells: Vec<(u32, u32)>,
}

impl LegendLayout {
    pub(super) fn rows(&self) -> u32 {
        self.cells.last().map_or(0, |&(r, _)| r + 1)
    }
}

/// Legend layout from the text widths. The columns are as wide as the widest series label
/// (theory lines and the budget mark too when there are no series), so a long theory label
/// does not force one column on a chart of many short series: an entry wider than a column
/// gets a row of its own, and the entries after it start a new row. Labels too wide for the
/// canvas at the usual size get a smaller type (down to 20 px); one too wide even then is cut
/// when drawn (`draw_legend`).
pub(super) fn legend_layout<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    entries: &[LegendEntry],
) -> LegendLayout {
    let full = WIDTH - 40;
    let mut px = LEGEND_PX;
    loop {
        let style = TextStyle::from((FAMILY, px).into_font());
        let widths: Vec<u32> = entries
            .iter()
            .map(|e| {
                let text = root
                    .estimate_text_size(&e.label, &style)
                    .map(|(w, _)| w)
                    .unwrap_or(e.label.chars().count() as u32 * px * 6 / 10);
                SWATCH + 16 + text + 40
            })
            .collect();
        let widest = widths.iter().copied().max().unwrap_or(0);
        if widest > full && px > 20 {
            px -= 2;
            continue;
        }
        let series = entries.iter().any(|e| e.marker.is_some());
        let col_w = entries
            .iter()
            .zip(&widths)
            .filter(|(e, _)| !series || e.marker.is_some())
            .map(|(_, &w)| w)
            .max()
            .unwrap_or(0)
            .min(full);
        let cols = (full / col_w.max(1)).clamp(1, entries.len().max(1) as u32);
        let mut cells = Vec::with_capacity(entries.len());
        let (mut row, mut col) = (0, 0);
        for &w in &widths {
            if w > col_w {
                // A row of its own.
                if col > 0 {
                    row += 1;
                }
                cells.push((row, 0));
                (row, col) = (row + 1, 0);
            } else {
                cells.push((row, col));
                col += 1;
                if col == cols {
                    (row, col) = (row + 1, 0);
                }
            }
        }
        return LegendLayout {
            col_w,
            span: (cols * col_w).max(widest.min(full)),
            px,
            cells,
        };
    }
}

/// Draws `c`'s legend in `legend`, the area below the plot (`root`: the whole canvas, whose
/// text sizes lay it out).
pub(super) fn draw_legend<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    legend: &DrawingArea<DB, Shift>,
    c: &Chart,
) -> std::result::Result<(), String> {
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let entries = legend_entries(c);
    let layout = legend_layout(root, &entries);
    let text =
        TextStyle::from((FAMILY, layout.px).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
    let left = (WIDTH.saturating_sub(layout.span) / 2) as i32;
    let head = if c.series_columns.is_empty() {
        "legend".to_string()
    } else {
        format!("series: {}", c.series_columns.join(", "))
    };
    legend
        .draw(&Text::new(
            head,
            (left, (10 + LEGEND_ROW / 2) as i32),
            text.clone(),
        ))
        .map_err(e)?;
    for (en, &(row, col)) in entries.iter().zip(&layout.cells) {
        let x = left + (col * layout.col_w) as i32;
        let y = (10 + (row + 1) * LEGEND_ROW + LEGEND_ROW / 2) as i32;
        if en.budget {
            budget_mark(legend, (x + SWATCH as i32 / 2, y), en.color)?;
        } else if let Some((dash, gap)) = en.dashed {
            let mut sx = x;
            while sx < x + SWATCH as i32 {
                let ex = (sx + dash as i32).min(x + SWATCH as i32);
                legend
                    .draw(&PathElement::new(
                        vec![(sx, y), (ex, y)],
                        en.color.stroke_width(3),
                    ))
                    .map_err(e)?;
                sx += (dash + gap) as i32;
            }
        } else {
            // Points that are not joined (`Chart::lines`): no line in their swatch either.
            let line = if c.lines { 3 } else { 0 };
            if line > 0 {
                legend
                    .draw(&PathElement::new(
                        vec![(x, y), (x + SWATCH as i32, y)],
                        en.color.stroke_width(line),
                    ))
                    .map_err(e)?;
            }
            // A bar chart's series: a bar's face behind the marker.
            if c.bars && en.marker.is_some() {
                let (l, r) = (x + SWATCH as i32 / 2 - 12, x + SWATCH as i32 / 2 + 12);
                for st in bar_face(en.color) {
                    legend
                        .draw(&Rectangle::new([(l, y - 12), (r, y + 12)], st))
                        .map_err(e)?;
                }
            }
            if let Some(i) = en.marker {
                legend_marker(legend, (x + SWATCH as i32 / 2, y), i, en.color)?
            }
        }
        // A label too long for the canvas even at the smallest size (`legend_layout`) loses
        // its middle to a `…`; report.md's tables name the series in full.
        let room = (WIDTH - 40).saturating_sub(SWATCH + 16 + 40);
        let label = super::draw::cut_to_fit(en.label.clone(), |t| {
            root.estimate_text_size(t, &text)
                .map_or(true, |(w, _)| w <= room)
        });
        legend
            .draw(&Text::new(label, (x + SWATCH as i32 + 16, y), text.clone()))
            .map_err(e)?;
    }
    Ok(())
}
