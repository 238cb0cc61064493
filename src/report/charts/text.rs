//! Text in the PNG, drawn glyph by glyph where the font puts each glyph.
//!
//! plotters' ab_glyph rasterizer (0.3.7) places each glyph's ink box at the pen position,
//! dropping the glyph's left side bearing and rounding the pen down to a whole pixel at every
//! glyph: "Nodes" reads "N odes", "fitted" reads "fi tted". [`GlyphText`] wraps the bitmap
//! backend and draws text itself, the ink of each glyph where the font's outline puts it (pen
//! position plus bearing, at sub-pixel precision), with the same kerning, advances and vertical
//! placement as plotters, so every text keeps the width and height plotters laid it out with.
//! Lines wider than a pixel are drawn here too ([`super::stroke`]); everything else goes
//! straight to the wrapped backend.

use ab_glyph::{point, Font, FontRef, ScaleFont};
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
};

/// A bitmap backend whose text is drawn with [`GlyphText::draw_text`].
pub(super) struct GlyphText<'f, B> {
    inner: B,
    font: &'f FontRef<'static>,
    family: &'static str,
}

impl<'f, B> GlyphText<'f, B> {
    /// `inner` drawing text of `family` with `font` (other families as `inner` draws them).
    pub(super) fn new(inner: B, font: &'f FontRef<'static>, family: &'static str) -> Self {
        GlyphText {
            inner,
            font,
            family,
        }
    }
}

/// Calls `ink(x, y, coverage)` for every pixel of `text` at `size`, relative to the top left of
/// plotters' layout box: the pen starts at x = 0 and the baseline lies at y = size / 2 (where
/// plotters puts it), advances and kerning as plotters measures them.
fn rasterize(font: &FontRef<'static>, size: f64, text: &str, mut ink: impl FnMut(i32, i32, f32)) {
    let scaled = font.as_scaled(size as f32);
    let baseline = (size as f32) / 2.0;
    let mut pen = 0f32;
    let mut prev = None;
    for c in text.chars() {
        let id = scaled.glyph_id(c);
        if let Some(p) = prev {
            pen += scaled.kern(p, id);
        }
        prev = Some(id);
        let glyph = id.with_scale_and_position(scaled.scale(), point(pen, baseline));
        if let Some(outline) = scaled.outline_glyph(glyph) {
            let bounds = outline.px_bounds();
            let (x0, y0) = (bounds.min.x as i32, bounds.min.y as i32);
            outline.draw(|x, y, coverage| ink(x0 + x as i32, y0 + y as i32, coverage));
        }
        pen += scaled.h_advance(id);
    }
}

impl<B: DrawingBackend> GlyphText<'_, B> {
    /// The path through `points` in `style`'s colour and width, by [`super::stroke`], each
    /// pixel of the canvas it covers drawn once.
    fn stroke<S: BackendStyle>(
        &mut self,
        points: &[BackendCoord],
        style: &S,
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        let color = style.color();
        if color.alpha == 0.0 || points.is_empty() {
            return Ok(());
        }
        for p in super::stroke::stroke_pixels(points, style.stroke_width(), self.get_size()) {
            self.inner.draw_pixel(p, color)?;
        }
        Ok(())
    }
}

impl<B: DrawingBackend> DrawingBackend for GlyphText<'_, B> {
    type ErrorType = B::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.ensure_prepared()
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.present()
    }

    fn draw_pixel(
        &mut self,
        point: BackendCoord,
        color: BackendColor,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.draw_pixel(point, color)
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        if style.stroke_width() <= 1 {
            return self.inner.draw_line(from, to, style);
        }
        self.stroke(&[from, to], style)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.draw_rect(upper_left, bottom_right, style, fill)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        if style.stroke_width() <= 1 {
            return self.inner.draw_path(path, style);
        }
        let points: Vec<BackendCoord> = path.into_iter().collect();
        self.stroke(&points, style)
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.draw_circle(center, radius, style, fill)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.fill_polygon(vert, style)
    }

    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        size: (u32, u32),
        src: &[u8],
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.blit_bitmap(pos, size, src)
    }

    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<Self::ErrorType>> {
        self.inner.estimate_text_size(text, style)
    }

    /// As plotters' default `draw_text` (anchor, rotation, clipping to the canvas, the colour's
    /// alpha times the glyph's coverage), with the glyphs rasterized by [`rasterize`].
    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        if style.family().as_str() != self.family {
            return self.inner.draw_text(text, style, pos);
        }
        let color = style.color();
        if color.alpha == 0.0 {
            return Ok(());
        }
        let ((min_x, min_y), (max_x, max_y)) = style
            .layout_box(text)
            .map_err(|e| DrawingErrorKind::FontError(Box::new(e)))?;
        let (width, height) = (max_x - min_x, max_y - min_y);
        let dx = match style.anchor().h_pos {
            HPos::Left => 0,
            HPos::Right => -width,
            HPos::Center => -width / 2,
        };
        let dy = match style.anchor().v_pos {
            VPos::Top => 0,
            VPos::Center => -height / 2,
            VPos::Bottom => -height,
        };
        let transform = style.transform();
        let (w, h) = self.get_size();
        let mut result = Ok(());
        rasterize(self.font, style.size(), text, |x, y, coverage| {
            if result.is_err() {
                return;
            }
            let (x, y) = transform.transform(x + dx - min_x, y + dy - min_y);
            let (x, y) = (pos.0 + x, pos.1 + y);
            if x >= 0 && x < w as i32 && y >= 0 && y < h as i32 {
                let ink = BackendColor {
                    alpha: color.alpha * f64::from(coverage),
                    rgb: color.rgb,
                };
                result = self.inner.draw_pixel((x, y), ink);
            }
        });
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn font() -> FontRef<'static> {
        FontRef::try_from_slice(super::super::FONT).unwrap()
    }

    /// The inked columns of `text` at `size`, as (leftmost, rightmost).
    fn ink_span(font: &FontRef<'static>, size: f64, text: &str, from: i32) -> (i32, i32) {
        let (mut lo, mut hi) = (i32::MAX, i32::MIN);
        rasterize(font, size, text, |x, _, c| {
            if c > 0.0 && x >= from {
                lo = lo.min(x);
                hi = hi.max(x);
            }
        });
        (lo, hi)
    }

    /// Each glyph's ink starts at its pen position plus its left side bearing. plotters' own
    /// drawing started it at the pen, so "N" (a bearing of 0.1 em) moved left of "o" and
    /// "Nodes" read "N odes".
    #[test]
    fn each_glyph_is_inked_where_the_font_puts_it() {
        let font = font();
        let size = 30.0;
        let scaled = font.as_scaled(size as f32);
        let (n, o) = (scaled.glyph_id('N'), scaled.glyph_id('o'));
        let n_bearing = scaled.h_side_bearing(n);
        assert!(n_bearing > 2.0, "N's bearing {n_bearing}");
        let (n_left, n_right) = ink_span(&font, size, "N", i32::MIN);
        assert_eq!(n_left, n_bearing.floor() as i32);
        // "o" after "N": N's advance, the pair's kerning, then o's own bearing.
        let (o_left, _) = ink_span(&font, size, "No", n_right + 1);
        let expected = scaled.h_advance(n) + scaled.kern(n, o) + scaled.h_side_bearing(o);
        assert!(
            (o_left - expected.floor() as i32).abs() <= 1,
            "o inked from {o_left}, the font puts it at {expected}"
        );
    }

    /// A half-transparent wide path is blended once per pixel, also where its segments meet
    /// and overlap: every pixel is white or one blend of black over white, none darker.
    #[test]
    fn a_wide_path_is_blended_once_per_pixel() {
        use plotters::prelude::{BitMapBackend, BLACK};
        use plotters::style::Color;
        let font = font();
        let (w, h) = (120u32, 80u32);
        let mut rgb = vec![255u8; (w * h * 3) as usize];
        {
            let bitmap = BitMapBackend::with_buffer(&mut rgb, (w, h));
            let mut g = GlyphText::new(bitmap, &font, super::super::FAMILY);
            let style = Color::stroke_width(&BLACK.mix(0.5), 3);
            g.draw_path(vec![(10, 10), (60, 60), (110, 10)], &style)
                .unwrap();
            g.present().unwrap();
        }
        let mut values: Vec<u8> = rgb.clone();
        values.sort_unstable();
        values.dedup();
        assert_eq!(values.len(), 2, "{values:?}");
        assert!((126..=128).contains(&values[0]), "{values:?}");
    }

    /// The baseline is where plotters puts it: the bottom of "x" sits at size / 2.
    #[test]
    fn the_baseline_is_plotters_one() {
        let mut bottom = i32::MIN;
        rasterize(&font(), 40.0, "x", |_, y, c| {
            if c > 0.0 {
                bottom = bottom.max(y)
            }
        });
        assert!((bottom - 20).abs() <= 1, "bottom of x at {bottom}");
    }
}
