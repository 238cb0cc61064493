//! Lines wider than a pixel in the PNG, each pixel once, the same width at every angle.
//!
//! plotters' bitmap backend turns a wide path into a polygon whose corners it rounds to whole
//! pixels (a 3-pixel line's edges lie 1.5 pixels off its centre) and fills that polygon
//! half-open: one line came out 2 pixels wide on one segment and 5 on the next. Here a pixel
//! belongs to the stroke when its centre lies within half the width of the path, the path's
//! joints round and its two ends flat (cut square at the end points, as SVG's default caps
//! are, so that the dashes of a dashed line, each a path of its own, keep their length).
//! Horizontal, vertical and slanted lines of width 3 are 3 pixels across.

use plotters_backend::BackendCoord;

/// The pixels of the path through `points` stroked `width` pixels wide, within a canvas of
/// `size`, sorted, each once (a colour with alpha is blended once per pixel). A path of one
/// point draws nothing, as in plotters.
pub(super) fn stroke_pixels(
    points: &[BackendCoord],
    width: u32,
    size: (u32, u32),
) -> Vec<BackendCoord> {
    let r = f64::from(width) / 2.0;
    let reach = i64::from(r.ceil() as i32);
    // An even width has no centre pixel: the path runs through pixel corners (half a pixel
    // right and down), so that a line 2 wide covers 2 pixels across, not 1 or 3.
    let shift = if width.is_multiple_of(2) { 0.5 } else { 0.0 };
    let (w, h) = (i64::from(size.0), i64::from(size.1));
    let last = points.len().saturating_sub(2);
    let mut out = Vec::new();
    for (i, s) in points.windows(2).enumerate() {
        let (a, b) = (
            (i64::from(s[0].0), i64::from(s[0].1)),
            (i64::from(s[1].0), i64::from(s[1].1)),
        );
        let (ax, ay) = (a.0 as f64 + shift, a.1 as f64 + shift);
        let (dx, dy) = ((b.0 - a.0) as f64, (b.1 - a.1) as f64);
        let len2 = dx * dx + dy * dy;
        // The segment's box, widened by the stroke and cut to the canvas.
        let (x0, x1) = (
            (a.0.min(b.0) - reach).max(0),
            (a.0.max(b.0) + reach).min(w - 1),
        );
        let (y0, y1) = (
            (a.1.min(b.1) - reach).max(0),
            (a.1.max(b.1) + reach).min(h - 1),
        );
        for y in y0..=y1 {
            for x in x0..=x1 {
                let (px, py) = (x as f64 - ax, y as f64 - ay);
                // Where the pixel's centre falls along the segment (0 at a, 1 at b): before
                // the path's first point or from its last on, outside the flat end.
                let t = if len2 > 0.0 {
                    (px * dx + py * dy) / len2
                } else {
                    0.0
                };
                if (i == 0 && t < 0.0) || (i == last && t >= 1.0 && len2 > 0.0) {
                    continue;
                }
                // The nearest point of the segment (its ends rounded, which makes the joints).
                let t = t.clamp(0.0, 1.0);
                let (ex, ey) = (px - t * dx, py - t * dy);
                if ex * ex + ey * ey <= r * r {
                    out.push((x as i32, y as i32));
                }
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const CANVAS: (u32, u32) = (1000, 1000);

    /// The pixels a line covers across its direction, at its middle: a horizontal, a vertical
    /// and slanted lines (going up and going down, which plotters drew 2 and 5 pixels wide at
    /// width 3) are as many pixels across as their width, measured along the axis nearer their
    /// normal (exactly, for the horizontal and the vertical line).
    #[test]
    fn a_wide_line_is_as_wide_at_every_angle() {
        for width in [2, 3, 4] {
            for (to, across_rows) in [
                ((100, 0), true),
                ((0, 100), false),
                ((100, 12), true),
                ((100, -12), true),
                ((100, 40), true),
                ((100, -40), true),
            ] {
                let (from, to) = ((200, 200), (200 + to.0, 200 + to.1));
                let px = stroke_pixels(&[from, to], width, CANVAS);
                let mid = ((from.0 + to.0) / 2, (from.1 + to.1) / 2);
                let count = if across_rows {
                    px.iter().filter(|p| p.0 == mid.0).count()
                } else {
                    px.iter().filter(|p| p.1 == mid.1).count()
                };
                // A slant of dy/dx makes a column cut the stroke longer: width / cos(angle).
                let slant = if across_rows {
                    (f64::from(to.1 - from.1) / f64::from(to.0 - from.0)).abs()
                } else {
                    0.0
                };
                let expected = f64::from(width) * (1.0 + slant * slant).sqrt();
                assert!(
                    (count as f64 - expected).abs() < 0.75,
                    "width {width} to {to:?}: {count} pixels across, expected about {expected:.2}"
                );
                if slant == 0.0 {
                    assert_eq!(count, width as usize, "width {width} to {to:?}");
                }
            }
        }
    }

    /// A path's ends are flat and its joints round: a 5-pixel dash is 5 pixels long (round
    /// ends made the dotted line's 5 on, 6 off read 8 on, 3 off), and the corner of a bent
    /// path is covered on its outer side.
    #[test]
    fn ends_are_flat_and_joints_round() {
        let dash = stroke_pixels(&[(100, 100), (105, 100)], 3, CANVAS);
        let mut xs: Vec<i32> = dash.iter().map(|p| p.0).collect();
        xs.dedup();
        assert_eq!(xs, (100..105).collect::<Vec<_>>());
        assert_eq!(dash.len(), 15);
        let bent = stroke_pixels(&[(200, 200), (250, 230), (300, 200)], 3, CANVAS);
        assert!(bent.contains(&(250, 231)), "the corner's outer side");
        // A one-point path draws nothing, as plotters' does.
        assert!(stroke_pixels(&[(5, 5)], 3, CANVAS).is_empty());
    }

    /// Only the canvas is visited, and coordinates far outside it do not overflow.
    #[test]
    fn strokes_are_cut_to_the_canvas() {
        let px = stroke_pixels(&[(-i32::MAX, 50), (i32::MAX, 50)], 3, (100, 100));
        assert_eq!(px.len(), 300);
        assert!(px
            .iter()
            .all(|p| (0..100).contains(&p.0) && (49..=51).contains(&p.1)));
    }
}
