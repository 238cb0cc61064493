//! Charts with plotters, each as SVG (vector, for papers) and PNG (1200 px wide, large type for
//! a paper's column width). Text is drawn with the embedded DejaVu Sans (no system font
//! library): [`register_font`] must run before drawing.
//!
//! What is drawn (`[report] charts`):
//! - `nodes`: mean nodes vs x on a log scale, one line per series, min-max bars over the
//!   group's positions and repetitions, and dashed theory lines: the full tree and Knuth and
//!   Moore's minimal tree for the group's b (see `summary` for where b comes from).
//! - `ebf`: mean effective branching factor nodes^(1/max_ply) vs x, min-max bars, and Pearl's
//!   R*(b) dashed.
//! - `ratio-to-minimal`: nodes / minimal tree as bars from 1 to the mean, side by side (the
//!   nodes point and min-max whiskers, each over the group's minimal tree; log scale when they
//!   span more than a factor 30), with a dotted line at 1.
//! - `nodes-vs-table`: mean nodes vs the transposition-table size column (log x).
//!
//! Every parameter that varies and is neither the x axis, a series column nor a facet column
//! is added to the series, so no chart averages over a parameter silently. The legend sits
//! below the plot, never over data.
//!
//! One file per concern: `plan` turns summary.csv's groups into [`Chart`]s (what is drawn);
//! `draw` draws one, with its axes (`axes`), markers and colours (`style`) and legend
//! (`legend`); this file renders it as SVG or PNG (the PNG's text drawn by `text`).

use plotters::prelude::*;

use crate::error::{Error, Result};

mod axes;
mod draw;
mod legend;
mod plan;
mod stroke;
mod style;
#[cfg(test)]
mod tests;
mod text;

pub use draw::draw;
pub use legend::BUDGET_LABEL;
pub use plan::{
    plan_charts, Chart, Layout, NotDrawn, Point, Series, MAX_STEM, NO_TABLE, TABLE_SIZE_COLUMNS,
};
pub use style::{PLOT_HEIGHT, WIDTH};

use axes::canvas_height;

/// The embedded font (DejaVu Sans; licence in assets/fonts/DejaVuSans-LICENSE.txt).
static FONT: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSans.ttf");
const FAMILY: &str = "sans-serif";

/// The characters of `text` the embedded font has no glyph for (each once, in order): the PNG
/// draws a box for each. Spaces and control characters aside.
pub fn missing_glyphs(text: &str) -> Vec<char> {
    use ab_glyph::Font;
    let Ok(font) = parsed_font() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for c in text.chars() {
        if !c.is_whitespace() && !c.is_control() && font.glyph_id(c).0 == 0 && !out.contains(&c) {
            out.push(c);
        }
    }
    out
}

/// The embedded font, parsed once.
fn parsed_font() -> Result<&'static ab_glyph::FontRef<'static>> {
    static PARSED: std::sync::OnceLock<Option<ab_glyph::FontRef<'static>>> =
        std::sync::OnceLock::new();
    PARSED
        .get_or_init(|| ab_glyph::FontRef::try_from_slice(FONT).ok())
        .as_ref()
        .ok_or_else(|| Error::Internal("the embedded font does not load".into()))
}

/// Registers the embedded font as plotters' `sans-serif` (idempotent).
pub fn register_font() -> Result<()> {
    static DONE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    let ok = *DONE
        .get_or_init(|| plotters::style::register_font(FAMILY, FontStyle::Normal, FONT).is_ok());
    if ok {
        Ok(())
    } else {
        Err(Error::Internal("the embedded font does not load".into()))
    }
}

/// The chart as SVG text.
pub fn render_svg(c: &Chart) -> Result<String> {
    register_font()?;
    let h = canvas_height(c);
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (WIDTH, h)).into_drawing_area();
        draw(&root, c).map_err(|m| Error::Internal(format!("chart {}: {m}", c.stem)))?;
    }
    // Text was laid out with DejaVu Sans's metrics: ask the viewer for that font first (then
    // Verdana, of about the same widths), so labels fit as they do in the PNG wherever it is
    // installed.
    // XML allows no control character but tab and line ends: a text from a hand-edited
    // runs.csv that holds one loses it rather than making the file unreadable.
    let out: String = out
        .chars()
        .filter(|c| !c.is_control() || matches!(c, '\t' | '\n' | '\r'))
        .collect();
    Ok(out.replace(
        &format!("font-family=\"{FAMILY}\""),
        &format!("font-family=\"{SVG_FAMILIES}\""),
    ))
}

/// The SVG's font list.
const SVG_FAMILIES: &str = "DejaVu Sans, Verdana, sans-serif";

/// The chart as PNG bytes (RGB, best compression, adaptive filter: deterministic).
pub fn render_png(c: &Chart) -> Result<Vec<u8>> {
    register_font()?;
    let h = canvas_height(c);
    let mut rgb = vec![0u8; WIDTH as usize * h as usize * 3];
    {
        let bitmap = BitMapBackend::with_buffer(&mut rgb, (WIDTH, h));
        let root = text::GlyphText::new(bitmap, parsed_font()?, FAMILY).into_drawing_area();
        draw(&root, c).map_err(|m| Error::Internal(format!("chart {}: {m}", c.stem)))?;
    }
    let mut out = Vec::new();
    let perr = |e: png::EncodingError| Error::Internal(format!("chart {}: PNG: {e}", c.stem));
    {
        let mut enc = png::Encoder::new(&mut out, WIDTH, h);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_compression(png::Compression::Best);
        enc.set_adaptive_filter(png::AdaptiveFilterType::Adaptive);
        let mut w = enc.write_header().map_err(perr)?;
        w.write_image_data(&rgb).map_err(perr)?;
        w.finish().map_err(perr)?;
    }
    Ok(out)
}
